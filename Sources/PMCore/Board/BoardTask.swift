import FoundationEssentials

/// One card of the board.
///
/// Its fields live in a shared box, copied only when a copy changes, so a
/// board of many tasks copies cheaply; a task read by way of the board's
/// index (``BoardIndex``) is decoded from its bytes the first time a field
/// other than its id is read.
public struct BoardTask: Equatable, Sendable {
    /// The task's UUID.
    public var id: TaskID
    /// Its fields; nil while it is unread, known only by its place in `file`.
    private var stored: TaskBox?
    private var file: LazyBoardFile?
    private var position = 0

    /// Its fields, read from the board file the first time they are needed.
    var box: TaskBox {
        if let stored { return stored }
        return file?.box(at: position, id: id) ?? TaskBox.unreadable
    }

    /// The fields besides the id.
    struct Fields: Equatable {
        var title: String
        var body: String
        var state: TaskState
        var due: CivilDate?
        var createdAt: String
        var updatedAt: String
        var unknownFields: [String: JSONValue]
        var conflicts: [String: [JSONValue]] = [:]
        var restored = false
        var heads: [String: [Head]] = [:]
        var live: [TaskID] = []
        var tracked = true
        var assignees: [String] = []
        var labels: [String] = []
        var priority: Priority?
        /// Every item, removed ones too, in the order shown (``ChecklistItem/precedes(_:_:)``).
        var checklist: [ChecklistItem] = []
        /// Every comment, withdrawn ones too, oldest first.
        var comments: [Comment] = []
        var recur: Series?
        var dueTime: DueTime?
    }

    public var title: String {
        get { stored?.shown.title ?? box.shown.title }
        set { change { $0.title = newValue } }
    }
    public var body: String {
        get { box.body }
        set { change { $0.body = newValue } }
    }
    public var state: TaskState {
        get { stored?.shown.state ?? box.shown.state }
        set { change { $0.state = newValue } }
    }
    /// The deadline, a calendar date; nil for none.
    public var due: CivilDate? {
        get { stored?.shown.due ?? box.shown.due }
        set { change { $0.due = newValue } }
    }
    /// ISO 8601 UTC, as stored.
    public var createdAt: String {
        get { stored?.shown.createdAt ?? box.shown.createdAt }
        set { change { $0.createdAt = newValue } }
    }
    /// ISO 8601 UTC, as stored; changes with every edit or move.
    public var updatedAt: String {
        get { box.updatedAt }
        set { change { $0.updatedAt = newValue } }
    }
    /// Who does it (``Assignees``): each name once, sorted by bytes.
    public var assignees: [String] {
        get { box.shown.assignees }
        set { change { $0.assignees = Assignees.sorted(newValue) } }
    }
    /// Its labels (``Labels``): each name once, sorted by bytes.
    public var labels: [String] {
        get { box.shown.labels }
        set { change { $0.labels = Assignees.sorted(newValue) } }
    }
    /// Its priority; nil for none.
    public var priority: Priority? {
        get { box.shown.priority }
        set { change { $0.priority = newValue } }
    }
    /// The deadline's time of day and zone; nil for a floating day (or no deadline).
    public var dueTime: DueTime? {
        get { box.shown.dueTime }
        set { change { $0.dueTime = newValue } }
    }
    /// The deadline, with its time when it has one.
    public var deadline: Deadline? { due.map { Deadline(date: $0, time: dueTime) } }
    /// Its recurring deadline; nil when it does not recur.
    public var recur: Series? {
        get { box.shown.recur }
        set { change { $0.recur = newValue } }
    }
    /// Its checklist as kept, removed items too, in the order shown.
    public var allItems: [ChecklistItem] {
        get { box.checklist }
        set { change { $0.checklist = newValue.sorted(by: ChecklistItem.precedes) } }
    }
    /// The checklist items a card shows, in order.
    public var checklist: [ChecklistItem] { box.checklist.filter(\.isShown) }
    /// Its comments as kept, withdrawn ones too, oldest first.
    public var allComments: [Comment] {
        get { box.comments }
        set { change { $0.comments = newValue.sorted(by: Comment.precedes) } }
    }
    /// The comments a card shows (not withdrawn), oldest first.
    public var comments: [Comment] { box.comments.filter { $0.text != nil } }
    /// Fields written by a newer pm, kept as they are.
    public var unknownFields: [String: JSONValue] {
        get { stored?.shown.unknownFields ?? box.shown.unknownFields }
        _modify {
            prepareChange()
            yield &stored.unsafelyUnwrapped.allFields.unknownFields
        }
    }
    /// Field → the values concurrent changes wrote that are not shown, until
    /// someone picks one (DESIGN.md §9). Empty when there is no conflict.
    public var conflicts: [String: [JSONValue]] {
        get { stored?.shown.conflicts ?? box.shown.conflicts }
        _modify {
            prepareChange()
            yield &stored.unsafelyUnwrapped.allFields.conflicts
        }
    }
    /// Deleted by someone who had not seen a change to it, and so kept (§9).
    public var restored: Bool {
        get { stored?.shown.restored ?? box.shown.restored }
        set { change { $0.restored = newValue } }
    }
    /// Field → the changes whose values it holds now: the one shown and one
    /// for each conflicting value. A change names the heads it saw
    /// (`Event.seen`), so the fold knows exactly which changes it replaces
    /// and which it was made without seeing, whatever their values.
    public var heads: [String: [Head]] {
        get { box.allFields.heads }
        // In place: a field set through a copy of the whole table cost a
        // fold time quadratic in a task's fields (issue 43).
        _modify {
            prepareChange()
            yield &stored.unsafelyUnwrapped.allFields.heads
        }
    }
    /// The creations and restorations that keep the task on the board: a
    /// deletion that did not see one of them (or a head) leaves it there.
    public var live: [TaskID] {
        get { box.allFields.live }
        _modify {
            prepareChange()
            yield &stored.unsafelyUnwrapped.allFields.live
        }
    }
    /// False for a task read from a board file written before heads were
    /// kept: only a fold from the log knows them.
    public var tracked: Bool {
        get { stored?.shown.tracked ?? box.shown.tracked }
        set { change { $0.tracked = newValue } }
    }

    /// A task with no unknown fields.
    public init(
        id: TaskID, title: String, body: String = "", state: TaskState = .todo, due: CivilDate? = nil,
        createdAt: String, updatedAt: String, unknownFields: [String: JSONValue] = [:]
    ) {
        self.id = id
        stored = TaskBox(
            Fields(
                title: title, body: body, state: state, due: due, createdAt: createdAt, updatedAt: updatedAt,
                unknownFields: unknownFields))
    }

    /// A task known so far only by its id and its place in the board file.
    init(id: TaskID, file: LazyBoardFile, position: Int) {
        self.id = id
        self.file = file
        self.position = position
    }

    /// Decoded, and from a board file written before heads were kept. A
    /// task read through the index is tracked or refused when decoded
    /// (``LazyBoardFile/task(_:at:)``): only one decoded whole can be this.
    var isDecodedUntracked: Bool {
        guard let stored else { return false }
        return !stored.shown.tracked
    }

    /// Whether its fields were decoded (a task read through the index is
    /// not until one is read).
    var isDecoded: Bool { stored != nil || file?.isDecoded(position) == true }

    /// Its file and place there, while it is known only by them: read
    /// through the index and unchanged since (its bytes there are still it).
    var unreadPlace: (file: LazyBoardFile, position: Int)? {
        guard stored == nil, let file else { return nil }
        return (file, position)
    }

    /// Whether `other` is this very task, unchanged, sharing its fields.
    func isSameStorage(as other: BoardTask) -> Bool {
        guard id == other.id else { return false }
        if let stored, let theirs = other.stored { return stored === theirs }
        if let file, file === other.file { return position == other.position }
        return box === other.box
    }

    /// A task of these fields (to read heads that depend on the others).
    init(id: TaskID, fields: Fields) {
        self.id = id
        stored = TaskBox(fields)
    }

    /// Leaves the heads and live changes as read, decoded when first used.
    func decodeHeadsLater(_ heads: LazyHeads) { box.decodeHeadsLater(heads) }

    /// Leaves the checklist and comments as read, decoded when first used.
    func decodePartsLater(_ parts: LazyParts) { box.decodePartsLater(parts) }

    /// Leaves the body as read, decoded when first used.
    func decodeBodyLater(_ body: LazyText) { box.decodeBodyLater(body) }

    /// Leaves the time of the last change as read, decoded when first used.
    func decodeUpdatedAtLater(_ text: LazyText) { box.decodeUpdatedAtLater(text) }

    private mutating func change(_ body: (inout Fields) -> Void) {
        prepareChange()
        body(&stored.unsafelyUnwrapped.allFields)
    }

    /// Makes the fields this task's own, decoded, ready to change in place.
    private mutating func prepareChange() {
        if stored == nil { (stored, file) = (box, nil) }
        if !isKnownUniquelyReferenced(&stored) { stored = TaskBox(box.allFields) }
    }

    /// Assigns or unassigns each name of `changes` at once: the names stay
    /// sorted by bytes, and the cost is one pass over them, however many
    /// names an event sets.
    mutating func setAssigned(_ changes: [String: Bool]) {
        guard !changes.isEmpty else { return }
        change { fields in
            let current = fields.assignees
            if changes.count == 1, let (name, assigned) = changes.first {
                // The usual change: one name, found by halving.
                let (index, present) = Assignees.place(of: name, in: current)
                if assigned && !present { fields.assignees.insert(name, at: index) }
                if !assigned && present { fields.assignees.remove(at: index) }
                return
            }
            var names = Set(current)
            for (name, assigned) in changes {
                if assigned { names.insert(name) } else { names.remove(name) }
            }
            if names.count != current.count || !names.allSatisfy(Set(current).contains) {
                fields.assignees = Assignees.sorted(names)
            }
        }
    }

    public static func == (lhs: BoardTask, rhs: BoardTask) -> Bool {
        lhs.isSameStorage(as: rhs) || (lhs.id == rhs.id && lhs.box.allFields == rhs.box.allFields)
    }

    /// Whether `other` shows the same: every field but the heads the fold keeps.
    public func sameContent(as other: BoardTask) -> Bool {
        var a = self
        var b = other
        (a.heads, a.live, a.tracked) = ([:], [], true)
        (b.heads, b.live, b.tracked) = ([:], [], true)
        return a == b
    }
}

/// A change whose value a field holds: its event, and the value.
public struct Head: Equatable, Sendable {
    public var event: TaskID
    public var value: JSONValue

    public init(event: TaskID, value: JSONValue) {
        self.event = event
        self.value = value
    }
}

/// What a history event records: a change to a task, or (`view`) to one
/// of the team's saved views, the entry then naming the view (its title)
/// and holding one change, of `filter`.
public enum HistoryAction: String, Sendable, CaseIterable {
    case added, edited, moved, removed, view
}

/// One change to a field, recorded by an `edited` event.
public struct FieldChange: Equatable, Sendable {
    /// `title`, `body` or `due`.
    public var field: String
    /// The old value (`null` for no deadline).
    public var from: JSONValue
    /// The new value.
    public var to: JSONValue
    /// For a checklist item's tick, removal or place: the item's text, so
    /// that the line reads without folding the log (the log keeps it beside
    /// the values, as ``CardField/contextKey``).
    public var context: String?

    public init(field: String, from: JSONValue, to: JSONValue, context: String? = nil) {
        self.field = field
        self.from = from
        self.to = to
        self.context = context
    }
}

/// One entry of the board's history: structured, never rendered text.
public struct HistoryEvent: Equatable, Sendable {
    /// A UUID, so that two copies of a board can be merged later.
    public var id: TaskID
    /// When, ISO 8601 UTC.
    public var at: String
    /// Who (`PM_USER`, else `USER`).
    public var by: String
    public var action: HistoryAction
    public var taskID: TaskID
    /// The task's title at that moment.
    public var title: String
    public var from: TaskState?
    public var to: TaskState?
    /// For `edited`: what changed.
    public var changes: [FieldChange]
    /// The event this entry takes back (an undo) or puts back (a redo), if any.
    public var undoes: TaskID?
    public var redoes: TaskID?
    /// The person of the copy the change came from, when it is not `by`
    /// (``ReplicaLedger``): its key signed a change naming someone else.
    /// Read from the ledger, never stored.
    public var copyOf: String?

    public init(
        id: TaskID, at: String, by: String, action: HistoryAction, taskID: TaskID, title: String,
        from: TaskState? = nil, to: TaskState? = nil, changes: [FieldChange] = []
    ) {
        self.id = id
        self.at = at
        self.by = by
        self.action = action
        self.taskID = taskID
        self.title = title
        self.from = from
        self.to = to
        self.changes = changes
    }
}

/// The first 24 bytes of an ASCII text as three big-endian words,
/// zero-padded: two keys that differ order as their texts do (for ASCII,
/// String's order is the bytes'); equal keys say nothing (a longer text, or
/// one with NUL bytes), and the texts decide. Nil for any other text, whose
/// order is Unicode's, not its bytes'.
struct TextOrderKey: Comparable {
    private var words: (UInt64, UInt64, UInt64) = (0, 0, 0)

    init?(_ text: String) {
        var text = text
        guard text.withUTF8({ $0.allSatisfy { $0 < 0x80 } }) else { return nil }
        words = text.withUTF8 { bytes in
            func word(_ start: Int) -> UInt64 {
                var word: UInt64 = 0
                for offset in start..<(start + 8) { word = word << 8 | UInt64(offset < bytes.count ? bytes[offset] : 0) }
                return word
            }
            return (word(0), word(8), word(16))
        }
    }

    static func == (a: TextOrderKey, b: TextOrderKey) -> Bool { a.words == b.words }
    static func < (a: TextOrderKey, b: TextOrderKey) -> Bool { a.words < b.words }
}
