/// The tasks a sequence of events folds to: the board is the state folded
/// from the log (DESIGN.md §4). Pure: the same events in the same order give
/// the same tasks. (The order itself — hybrid clock, replica, id — and the
/// rules for concurrent changes belong to the merge, with sync.)
public struct FoldedTasks: Equatable, Sendable {
    /// The tasks by id.
    public private(set) var byID: [TaskID: BoardTask]

    /// Starts from `tasks` (a board's, or none).
    public init(_ tasks: [BoardTask] = []) {
        byID = Dictionary(tasks.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// The tasks in creation order (created time, then id), as the board file keeps them.
    public var ordered: [BoardTask] {
        byID.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    /// Applies one event. A kind this pm does not know changes nothing (it
    /// stays in the log for a newer pm); an edit of a task that is gone
    /// changes nothing here (sync's merge rules restore it).
    public mutating func apply(_ event: Event) {
        switch event.kind {
        case .created, .restored:
            var task =
                byID[event.task] ?? BoardTask(id: event.task, title: "", createdAt: event.at, updatedAt: event.at)
            Self.set(event.fields, on: &task)
            task.updatedAt = event.at
            byID[event.task] = task
        case .edited, .moved:
            guard var task = byID[event.task] else { return }
            Self.set(event.fields, on: &task)
            task.updatedAt = event.at
            byID[event.task] = task
        case .deleted:
            byID[event.task] = nil
        case .other:
            return
        }
    }

    /// Applies events in order.
    public mutating func apply<Events: Sequence>(_ events: Events) where Events.Element == Event {
        for event in events { apply(event) }
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
