/// One card of the board.
public struct BoardTask: Equatable, Sendable {
    /// The task's UUID.
    public var id: TaskID
    public var title: String
    public var body: String
    public var state: TaskState
    /// The deadline, a calendar date; nil for none.
    public var due: CivilDate?
    /// ISO 8601 UTC, as stored.
    public var createdAt: String
    /// ISO 8601 UTC, as stored; changes with every edit or move.
    public var updatedAt: String
    /// Fields written by a newer pm, kept as they are.
    public var unknownFields: [String: JSONValue]
    /// Field → the values concurrent changes wrote that are not shown, until
    /// someone picks one (DESIGN.md §9). Empty when there is no conflict.
    public var conflicts: [String: [JSONValue]] = [:]
    /// Deleted by someone who had not seen a change to it, and so kept (§9).
    public var restored = false
    /// Field → the changes whose values it holds now: the one shown and one
    /// for each conflicting value. A change names the heads it saw
    /// (`Event.seen`), so the fold knows exactly which changes it replaces
    /// and which it was made without seeing, whatever their values.
    public var heads: [String: [Head]] = [:]
    /// The creations and restorations that keep the task on the board: a
    /// deletion that did not see one of them (or a head) leaves it there.
    public var live: [TaskID] = []
    /// False for a task read from a board file written before heads were
    /// kept: only a fold from the log knows them.
    public var tracked = true

    /// A task with no unknown fields.
    public init(
        id: TaskID, title: String, body: String = "", state: TaskState = .todo, due: CivilDate? = nil,
        createdAt: String, updatedAt: String, unknownFields: [String: JSONValue] = [:]
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.state = state
        self.due = due
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.unknownFields = unknownFields
    }

    /// Whether `other` shows the same: every field but the heads the fold keeps.
    public func sameContent(as other: BoardTask) -> Bool {
        var a = self
        var b = other
        (a.heads, a.live, a.tracked) = ([:], [], true)
        (b.heads, b.live, b.tracked) = ([:], [], true)
        return a == b
    }

    /// Overdue: not done, and the deadline is before `today` (the viewer's date).
    /// A deadline of today is not overdue.
    public func isOverdue(today: CivilDate) -> Bool {
        guard state != .done, let due else { return false }
        return due < today
    }

    /// The board's reading order, in `pm list` and `pm board` alike: by
    /// deadline (none last), then by creation, then by id.
    public static func byDeadline(_ tasks: [BoardTask]) -> [BoardTask] {
        // Indices sorted on keys computed once: moving whole tasks and
        // re-reading their fields at every comparison cost more than the rest.
        let days = tasks.map { $0.due?.daysSince1970 ?? Int.max }
        var indices = Array(tasks.indices)
        indices.sort { a, b in
            if days[a] != days[b] { return days[a] < days[b] }
            let (x, y) = (tasks[a], tasks[b])
            return x.createdAt != y.createdAt ? x.createdAt < y.createdAt : x.id < y.id
        }
        return indices.map { tasks[$0] }
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

/// What a history event records.
public enum HistoryAction: String, Sendable, CaseIterable {
    case added, edited, moved, removed
}

/// One change to a field, recorded by an `edited` event.
public struct FieldChange: Equatable, Sendable {
    /// `title`, `body` or `due`.
    public var field: String
    /// The old value (`null` for no deadline).
    public var from: JSONValue
    /// The new value.
    public var to: JSONValue

    public init(field: String, from: JSONValue, to: JSONValue) {
        self.field = field
        self.from = from
        self.to = to
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
