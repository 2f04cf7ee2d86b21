/// The fold and the merge rules (DESIGN.md §9): the tasks a set of events
/// comes to. Pure and deterministic: events are applied in merge order
/// (hybrid clock, then replica, then event id), so every copy of a board that
/// has the same events has the same tasks, whatever order they arrived in.
///
/// The rules, applied event by event in that order:
/// - a field change whose replaced value is not what the field holds was made
///   without seeing it (a concurrent change): the later value is shown and the
///   one it displaced is kept as a conflict on the task, until a change that
///   saw the conflicts (`FieldChangeValues.conflicts`) picks a value; values
///   equal after Unicode normalisation are no conflict;
/// - an edit of a task deleted without seeing that edit's change, or a
///   deletion that did not see the task's latest values, keeps the task (with
///   the edit) and marks it restored; deleting it again then sticks;
/// - kinds and fields this pm does not know pass through untouched.
public struct FoldedTasks: Equatable, Sendable {
    /// The tasks by id.
    public private(set) var byID: [TaskID: BoardTask]
    /// Deleted tasks as they last were: an edit made without seeing the
    /// deletion brings the task back.
    private var tombstones: [TaskID: BoardTask] = [:]
    /// Whether the fold started from a saved state (whose deleted tasks are
    /// not known) rather than from the first event.
    private let fromSavedState: Bool
    /// The merge-order key of the last event applied.
    public private(set) var last: EventOrder?
    /// Set when an event arrived out of merge order or needed a deleted task
    /// a saved state does not keep: only a fold from the first event is right.
    public private(set) var needsFullFold = false

    /// Starts from `tasks` (a board's saved state), or from nothing.
    public init(_ tasks: [BoardTask] = [], last: EventOrder? = nil) {
        self.init(tasks, last: last, fromSavedState: !tasks.isEmpty || last != nil)
    }

    init(_ tasks: [BoardTask], last: EventOrder?, fromSavedState: Bool) {
        byID = Dictionary(tasks.map { ($0.id, $0) }, uniquingKeysWith: { _, later in later })
        self.fromSavedState = fromSavedState
        self.last = last
    }

    /// Applies `events` (which come after `last` in merge order) to a saved
    /// board's tasks in creation order, touching only the tasks they name:
    /// the cost of a change does not grow with the board. Returns false, with
    /// `tasks` unchanged, when only a fold from the first event is right.
    public static func apply(_ events: [Event], to tasks: inout [BoardTask], last: EventOrder?) -> Bool {
        guard !events.isEmpty else { return true }
        let named = Set(events.map(\.task))
        var touched = FoldedTasks(tasks.filter { named.contains($0.id) }, last: last, fromSavedState: true)
        touched.apply(events)
        guard !touched.needsFullFold else { return false }
        tasks.removeAll { named.contains($0.id) }
        for task in touched.ordered {
            // Binary search for its place in creation order (a new task is usually last).
            var low = 0
            var high = tasks.count
            while low < high {
                let middle = (low + high) / 2
                if (tasks[middle].createdAt, tasks[middle].id) < (task.createdAt, task.id) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            tasks.insert(task, at: low)
        }
        return true
    }

    /// The fold of `events` from nothing: duplicates (the same event id) once,
    /// in merge order.
    public static func fold<Events: Sequence>(_ events: Events) -> FoldedTasks where Events.Element == Event {
        var folded = FoldedTasks()
        folded.apply(inMergeOrder(events))
        return folded
    }

    /// `events` without repeats (by id), sorted in merge order.
    public static func inMergeOrder<Events: Sequence>(_ events: Events) -> [Event] where Events.Element == Event {
        var seen = Set<TaskID>()
        var unique: [Event] = []
        for event in events where seen.insert(event.id).inserted { unique.append(event) }
        return unique.sorted { EventOrder($0) < EventOrder($1) }
    }

    /// The tasks in creation order (created time, then id), as the board file keeps them.
    public var ordered: [BoardTask] {
        byID.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    /// Applies events in order.
    public mutating func apply<Events: Sequence>(_ events: Events) where Events.Element == Event {
        for event in events { apply(event) }
    }

    /// Applies one event, which must come after every event applied so far
    /// in merge order (else `needsFullFold` is set and the event is still applied).
    public mutating func apply(_ event: Event) {
        let key = EventOrder(event)
        if let last, !(last < key) { needsFullFold = true }
        last = key
        switch event.kind {
        case .created, .restored:
            // A creation carries every field: it is the task, whatever came before.
            var task = BoardTask(id: event.task, title: "", createdAt: event.at, updatedAt: event.at)
            if let existing = byID[event.task] { task = existing }
            Self.set(event.fields, on: &task)
            task.updatedAt = event.at
            task.restored = false
            byID[event.task] = task
        case .edited, .moved:
            var task: BoardTask
            if let existing = byID[event.task] {
                task = existing
                task.restored = false
            } else if let deleted = tombstones.removeValue(forKey: event.task) {
                // Deleted by someone who had not seen this change: it comes back, with it.
                task = deleted
                task.restored = true
            } else {
                if fromSavedState { needsFullFold = true }
                return
            }
            Self.merge(event.fields, into: &task)
            task.updatedAt = event.at
            byID[event.task] = task
        case .deleted:
            guard var task = byID[event.task] else { return }
            if Self.saw(task, event.fields) {
                tombstones[event.task] = task
                byID[event.task] = nil
            } else {
                // The deletion did not see the task as it is now: keep it, marked.
                task.restored = true
                byID[event.task] = task
            }
        case .other:
            return
        }
    }

    /// Whether a deletion's recorded values are what the task shows now.
    private static func saw(_ task: BoardTask, _ fields: [String: FieldChangeValues]) -> Bool {
        for name in ["title", "body", "due", "state"] {
            guard let values = fields[name] else { continue }
            if values.old != LegacyMigration.contentValue(name, of: task) { return false }
        }
        return true
    }

    /// Applies field changes with the conflict rule.
    static func merge(_ fields: [String: FieldChangeValues], into task: inout BoardTask) {
        for name in fields.keys.sorted() {
            guard let values = fields[name] else { continue }
            if name == "createdAt" {
                set([name: values], on: &task)
                continue
            }
            let current = LegacyMigration.contentValue(name, of: task)
            // JSONValue's == compares strings by canonical equivalence: NFC and NFD are one value.
            var others = task.conflicts[name] ?? []
            others.removeAll { $0 == values.old || values.conflicts.contains($0) }
            if current != values.old, current != values.new, !others.contains(current) { others.append(current) }
            others.removeAll { $0 == values.new }
            set([name: values], on: &task)
            task.conflicts[name] = others.isEmpty ? nil : others
        }
    }

    /// Sets each field's new value; names pm does not know go to the task's
    /// unknown fields. Values were checked when the event was read.
    static func set(_ fields: [String: FieldChangeValues], on task: inout BoardTask) {
        for (name, values) in fields {
            switch (name, values.new) {
            case ("title", .string(let text)): task.title = text
            case ("body", .string(let text)): task.body = text
            case ("due", .null): task.due = nil
            case ("due", .string(let text)): task.due = CivilDate(iso: text)
            case ("state", .string(let text)): task.state = TaskState(rawValue: text) ?? task.state
            case ("createdAt", .string(let text)): task.createdAt = text
            case ("title", _), ("body", _), ("state", _), ("createdAt", _), ("due", _): break
            default: task.unknownFields[name] = values.new
            }
        }
    }
}

/// Where an event stands in merge order: hybrid clock, then replica, then
/// event id — so a machine with a fast clock cannot win every time for long,
/// and two events never tie.
public struct EventOrder: Comparable, Hashable, Sendable {
    public var clock: HybridClock
    public var replica: String
    public var id: String

    public init(_ event: Event) {
        clock = event.clock
        replica = event.replica.rawValue
        id = event.id.rawValue
    }

    public init(clock: HybridClock, replica: String, id: String) {
        self.clock = clock
        self.replica = replica
        self.id = id
    }

    public static func < (a: EventOrder, b: EventOrder) -> Bool {
        if a.clock != b.clock { return a.clock < b.clock }
        if a.replica != b.replica { return a.replica.utf8.lexicographicallyPrecedes(b.replica.utf8) }
        return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
    }
}
