import PMICU

/// The one gate every event from elsewhere passes (RELIABILITY.md, "bytes
/// from elsewhere"): a remote's files, `pm merge`, a sync tool's conflicted
/// copies — and this user's own changes too, so that what pm records here
/// every other copy accepts. The rule is the reader's: an event is admitted
/// only if a board holding it is one pm reads back.
///
/// An event refused is quarantined — left out, counted and named — never
/// fatal: the good events still merge.
public enum EventProblem: Equatable, Sendable {
    /// It claims a replica other than the file it came from (only a replica
    /// writes its own file).
    case wrongReplica(found: TaskID, expected: TaskID)
    /// Its clock is more than ``clockTolerance`` ahead of this machine's:
    /// left out for now, taken when this machine's time comes near it.
    case futureClock(milliseconds: Int64)
    /// A title, body, author or line beyond what pm ever writes.
    case oversized(field: String)
    /// Control, escape or bidi characters pm never lets anyone type.
    case unsafeText(field: String)
    /// A field named like a key pm writes on a task itself (`conflicts`,
    /// `restored`, `id`, `updatedAt`, `overdue`, `heads`, `live`): folded,
    /// it would make a task with that key twice.
    case reservedField(String)
    /// A time (`at`, `createdAt`) that is not one pm writes: ISO 8601 UTC,
    /// a real date and time of years 1–9999.
    case badTime(field: String)
    /// A title nobody could type: empty or invisible.
    case badTitle
    /// An assignment of a name pm would not keep as it is, or to something
    /// other than true or false.
    case badAssignee
    /// A label, priority, checklist item or comment pm would not keep as it is.
    case badCardValue(field: String)
    /// A saved view pm would not keep as it is (``SavedView``).
    case badView
    /// Its line, written back, would not read as the same event.
    case unreadable
    /// Another event already came with this id and other content.
    case duplicateID(TaskID)
    /// It claims a signed replica without that replica's valid signature, or
    /// carries a seal that is not its replica's (``EventSeal``): a forgery,
    /// or a line changed on the way.
    case badSignature
    /// Passed on by another copy (forwarded) without its replica's
    /// signature: only a signed event proves who made it.
    case unsignedForward

    /// How far ahead of this machine's clock an event may be: thirty days.
    /// Far more than any clock a copy follows (``HybridClock/adoptionLimit``),
    /// so an event that only inherited a teammate's fast clock is never left out.
    public static let clockTolerance: Int64 = 30 * 86_400_000

    /// The longest line an event may take: 8 MB. A change a person makes
    /// fits many times over (a title and body of the longest a command line
    /// passes, their old values and the values of a conflict it resolves,
    /// escaped); one that does not is refused at the keyboard too.
    public static let lineLimit = 8 << 20

    /// Most fields one event sets: every content field, ``Assignees/eventLimit``
    /// names, and the fields of a newer pm. What pm writes stays within it
    /// (a deletion carries at most this many of the task's fields), so
    /// folding one line costs time in its fields, not in a teammate's whim.
    public static let fieldLimit = 2_000

    /// Most keys a newer pm may add at the top of an event, and to one
    /// field's change (pm itself writes none).
    public static let extraKeyLimit = 64
    public static let extraFieldKeyLimit = 16

    /// Most JSON values (strings, numbers, members, elements, counted
    /// through every level) in what an event holds for a newer pm: its
    /// extra keys and the values of fields this pm does not know.
    public static let extraValueLimit = 100_000

    /// Keys pm writes on a task itself: a field of that name would appear twice.
    public static let reservedFieldNames: Set<String> = [
        "id", "updatedAt", "conflicts", "restored", "overdue", "heads", "live", "assignees", "labels", "checklist",
        "comments",
    ]

    /// The problem with `event`, or nil when it may be merged.
    /// - Parameters:
    ///   - replica: the replica whose file it came from, when known.
    ///   - now: this machine's wall clock, in milliseconds since 1970.
    ///   - forwarded: it came from another copy's forwarding file, which may
    ///     hold any replica's events, each with its replica's signature.
    public static func check(_ event: Event, replica: TaskID?, now: Int64, forwarded: Bool = false) -> EventProblem? {
        check(event, replica: replica, now: now, forwarded: forwarded).problem
    }

    static func check(_ event: Event, replica: TaskID?, now: Int64, forwarded: Bool = false) -> (
        problem: EventProblem?, line: [UInt8]
    ) {
        if let replica, event.replica != replica { return (.wrongReplica(found: event.replica, expected: replica), []) }
        if forwarded && event.seal == nil { return (.unsignedForward, []) }
        if event.clock.milliseconds > now &+ clockTolerance { return (.futureClock(milliseconds: event.clock.milliseconds), []) }
        if !isStoredTime(event.at) { return (.badTime(field: "at"), []) }
        if let problem = checkText(of: event) ?? checkFields(of: event) { return (problem, []) }
        let line = EventCodec.line(event)
        if line.count > lineLimit { return (.oversized(field: "line"), line) }
        // The line pm would write must read back as this very event.
        guard let again = try? EventCodec.decode(line: line.dropLast()), again == event else { return (.unreadable, line) }
        // Last, as the costliest: who made it.
        if event.seal != nil || EventSeal.isSignedReplica(event.replica), !EventSeal.isValid(event) {
            return (.badSignature, line)
        }
        return (nil, line)
    }

    /// The author and kind are checked as pm checks its own user's name.
    /// Titles an event only mentions (the task's title for context, values
    /// it replaced) may be anything a board held: they are shown escaped.
    private static func checkText(of event: Event) -> EventProblem? {
        if event.author.count > TaskInput.titleLimit { return .oversized(field: "author") }
        if event.author.unicodeScalars.contains(where: TextSafety.isUnsafe) { return .unsafeText(field: "author") }
        if case .other(let name) = event.kind, name.unicodeScalars.contains(where: TextSafety.isUnsafe) {
            return .unsafeText(field: "kind")
        }
        return nil
    }

    /// Field names and the values an event sets: a new title or body is one
    /// a person could have typed (the same rules as at the keyboard), a new
    /// creation time is a time pm writes, and no name is one pm writes itself.
    private static func checkFields(of event: Event) -> EventProblem? {
        if event.fields.count > fieldLimit { return .oversized(field: "fields") }
        if case .other(SavedView.kind) = event.kind { return checkView(event) }
        if event.unknownFields.count > extraKeyLimit { return .oversized(field: "event") }
        var extraValues = 0
        for value in event.unknownFields.values {
            extraValues += value.valueCount
            if extraValues > extraValueLimit { return .oversized(field: "event") }
        }
        var names = 0
        for (name, values) in event.fields {
            if values.unknownFields.count > extraFieldKeyLimit { return .oversized(field: name) }
            for value in values.unknownFields.values { extraValues += value.valueCount }
            if !LegacyMigration.isContentField(name) {
                for value in [values.new, values.old] + values.conflicts { extraValues += value.valueCount }
            }
            if extraValues > extraValueLimit { return .oversized(field: name) }
            if reservedFieldNames.contains(name) { return .reservedField(name) }
            if name.unicodeScalars.contains(where: TextSafety.isUnsafe) { return .unsafeText(field: "fields") }
            if let field = CardField(name) {
                if let problem = checkCard(field, values, deletion: event.kind == .deleted, names: &names) { return problem }
                continue
            }
            guard case .string(let text) = values.new else { continue }
            switch name {
            // Control, escape and bidi characters are kept as a board file
            // keeps them (pm shows them escaped everywhere, RELIABILITY.md):
            // a board shared as a file may hold them, and what one copy
            // holds every copy must take (issue 43). Only a person typing
            // them is refused.
            case "title":
                if text.count > TaskInput.titleLimit { return .oversized(field: name) }
                if !text.unicodeScalars.contains(where: TaskInput.isVisible) { return .badTitle }
            case "body":
                if text.count > TaskInput.bodyLimit { return .oversized(field: name) }
            case "createdAt":
                if !isStoredTime(text) { return .badTime(field: name) }
            default:
                break
            }
        }
        if event.kind == .created || event.kind == .restored, event.fields["title"] == nil { return .badTitle }
        return nil
    }

    /// A change to an assignee, a label, the priority, a checklist item or
    /// a comment. `names` counts the names set so far (assignees and labels).
    private static func checkCard(_ field: CardField, _ values: FieldChangeValues, deletion: Bool, names: inout Int)
        -> EventProblem?
    {
        switch field {
        case .assignee(let assignee):
            // A name pm keeps as it is, assigned (true) or not (false;
            // null in a deletion, which names what it took away):
            // anything else would fold into a card nobody could read or pick.
            let flags: [JSONValue] = [.null, .bool(false), .bool(true)]
            names += 1
            if names > Assignees.eventLimit { return .oversized(field: "assignees") }
            guard Assignees.isAdmissible(assignee), flags.contains(values.new), flags.contains(values.old),
                values.new != .null || deletion, values.conflicts.allSatisfy({ flags.contains($0) })
            else { return .badAssignee }
            return nil
        case .label:
            names += 1
            if names > Assignees.eventLimit { return .oversized(field: "labels") }
        default: break
        }
        return CardCheck.admits(field, values, deletion: deletion) ? nil : .badCardValue(field: field.name)
    }

    /// A saved view's event: its name and filter, nothing else, as pm keeps them.
    private static func checkView(_ event: Event) -> EventProblem? {
        guard Set(event.fields.keys) == ["name", "filter"], let (name, _) = SavedView.saved(by: event),
            Assignees.isAdmissible(name), event.task == SavedView.eventTask(name),
            event.fields.values.allSatisfy({ $0.conflicts.isEmpty && $0.unknownFields.isEmpty }),
            event.fields["name"]?.old == .null, isViewFilter(event.fields["filter"]?.old)
        else { return .badView }
        return nil
    }

    /// A view event's replaced filter: none (null), or one pm would keep.
    private static func isViewFilter(_ value: JSONValue?) -> Bool {
        switch value {
        case .null?: return true
        case .object(let members)?: return ViewFilter(members) != nil
        default: return false
        }
    }

    /// Whether `text` is a time as pm stores it: `YYYY-MM-DDTHH:MM:SS.fffZ`
    /// (fraction optional), a real instant of years 1–9999.
    public static func isStoredTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 30, bytes.last == UInt8(ascii: "Z"), bytes[10] == UInt8(ascii: "T"),
            bytes[16] == UInt8(ascii: ":"), let seconds = CivilDate.number(bytes[17..<19]), seconds < 60,
            let milliseconds = Timestamp.milliseconds(of: text), milliseconds >= -62_135_596_800_000,
            milliseconds <= Double(HybridClock.maximumMilliseconds)
        else { return false }
        return true
    }
}

/// Admits events from elsewhere one after another: each must pass
/// ``EventProblem/check(_:replica:)``, and an id must never come back with
/// other content (the first one stands).
public struct EventGate: Sendable {
    /// This machine's wall clock, in milliseconds since 1970.
    public let now: Int64
    /// Each admitted id, and a hash of its line.
    private var seen: [TaskID: Int] = [:]

    public init(now: Int64) { self.now = now }

    /// The problem with `event`, or nil when it is admitted. The same event
    /// twice is admitted twice (merging drops the repeat).
    /// - Parameters:
    ///   - replica: the replica whose file it came from, when known.
    ///   - forwarded: it came from a copy's forwarding file (signed events only).
    public mutating func admit(_ event: Event, replica: TaskID?, forwarded: Bool = false) -> EventProblem? {
        let (problem, line) = EventProblem.check(event, replica: replica, now: now, forwarded: forwarded)
        if let problem { return problem }
        if let earlier = seen[event.id] { return earlier == line.hashValue ? nil : .duplicateID(event.id) }
        seen[event.id] = line.hashValue
        return nil
    }
}
