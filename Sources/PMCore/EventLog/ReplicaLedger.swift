/// Who each copy of a board is, and which copies the board takes (issue 43,
/// item 9): part of the fold, so every copy that has the same events comes
/// to the same ledger, whatever order they arrived in.
///
/// - **A copy's person** is the author of its first change in merge order
///   (a converted pm 0.1 history and a conversion's baselines name no
///   one: they are the team's past, not the copy's own). A signed copy's
///   events are its key holder's alone, so a later change of the copy that
///   names someone else is shown with the copy's person beside it: an event
///   signed with mallory's key that says "by alice" reads "alice (from
///   mallory's copy)".
/// - **Unsigned copies that come late are set aside.** Once a board has a
///   signed copy, a copy that does not sign (a pm from before keys; a forger
///   writing a file of a name-based id) and whose first change comes after
///   it in merge order is not taken: its events stay in the log and change
///   nothing, and history does not show them. Copies that were there before
///   signing keep working.
///
/// Kept in `board.json` (in `log`, which an older pm rewrites without it: a
/// ledger that is missing is made again from the whole log).
public struct ReplicaLedger: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        /// The author of its first own change; nil while it has made none.
        public var person: String?
        /// Not taken: an unsigned copy that came after the board's first signed one.
        public var setAside: Bool

        public init(person: String? = nil, setAside: Bool = false) {
            self.person = person
            self.setAside = setAside
        }
    }

    /// Each copy that has written an event, by replica id.
    public private(set) var entries: [TaskID: Entry]
    /// Whether any copy signs.
    public private(set) var hasSigned: Bool
    /// The team's saved views by name (``SavedView``): board-wide, folded
    /// from their events as the ledger is, and kept beside it.
    public internal(set) var views: [String: SavedView] = [:]

    public init(entries: [TaskID: Entry] = [:]) {
        self.entries = entries
        hasSigned = entries.keys.contains(where: EventSeal.isSignedReplica)
    }

    /// The key on converted pm 0.1 history events (``LegacyMigration``).
    public static let convertedKey = "converted"

    /// Notes `event`, the next in merge order. False when the board does not
    /// take it (its copy is set aside); the board's record passes by.
    public mutating func take(_ event: Event) -> Bool {
        guard event.recordedBoard == nil else { return true }
        let names = Self.namesAuthor(event)
        if var entry = entries[event.replica] {
            if entry.setAside { return false }
            if entry.person == nil, names {
                entry.person = event.author
                entries[event.replica] = entry
            }
            return true
        }
        let signed = EventSeal.isSignedReplica(event.replica)
        if !signed, hasSigned {
            entries[event.replica] = Entry(setAside: true)
            return false
        }
        hasSigned = hasSigned || signed
        entries[event.replica] = Entry(person: names ? event.author : nil)
        return true
    }

    /// Saves or deletes the view a `view` event names (the latest in merge
    /// order stands); a board holds at most ``SavedView/boardLimit``.
    mutating func apply(view event: Event) {
        guard let (name, view) = SavedView.saved(by: event) else { return }
        if view != nil, views[name] == nil, views.count >= SavedView.boardLimit { return }
        views[name] = view
    }

    /// Whether the board takes events of `replica` (one it has not seen yet: yes).
    public func takes(_ replica: TaskID) -> Bool { entries[replica]?.setAside != true }

    /// The person `event`'s copy belongs to, when the event names someone
    /// else; nil when they agree or the copy has no person yet.
    public func otherPerson(of event: Event) -> String? {
        guard Self.namesAuthor(event), let person = entries[event.replica]?.person, person != event.author else { return nil }
        return person
    }

    /// The history entries of `events`, in their order: those of copies
    /// the board takes, each naming its copy's person when it names someone else.
    public func historyEntries<Events: Sequence>(_ events: Events) -> [HistoryEvent] where Events.Element == Event {
        events.compactMap { event in
            guard takes(event.replica), var entry = HistoryEvent(event) else { return nil }
            entry.copyOf = otherPerson(of: event)
            return entry
        }
    }

    /// The copies set aside.
    public var setAside: [TaskID] { entries.filter(\.value.setAside).keys.sorted() }

    /// Whether an event's author is the copy's own: not a conversion's.
    static func namesAuthor(_ event: Event) -> Bool {
        event.unknownFields[LegacyMigration.baselineKey] == nil && event.unknownFields[convertedKey] == nil
    }

    /// The ledger of `events` (any order).
    public static func of<Events: Sequence>(_ events: Events) -> ReplicaLedger where Events.Element == Event {
        var ledger = ReplicaLedger()
        for event in FoldedTasks.inMergeOrder(events) { _ = ledger.take(event) }
        return ledger
    }
}
