/// The use cases: each takes a board and returns the changed board's task and
/// the history event it appended. Nothing here prints, reads the clock or
/// touches a file.
extension Board {
    /// Adds a task to TODO.
    /// - Returns: the new task.
    @discardableResult
    public mutating func add(
        title: String, body: String = "", due: CivilDate? = nil, dueTime: DueTime? = nil, assignees: [String] = [],
        labels: [String] = [],
        priority: Priority? = nil, recur: Recurrence? = nil, until: CivilDate? = nil, id: TaskID, eventID: TaskID,
        by user: String, at time: String
    ) throws -> BoardTask {
        var task = BoardTask(
            id: id, title: try TaskInput.validTitle(title), body: try TaskInput.validBody(body), state: .todo,
            due: due, createdAt: time, updatedAt: time)
        if !assignees.isEmpty {
            task.assignees = try assignees.map(Assignees.validName)
            if task.assignees.count > Assignees.taskLimit { throw PMError.tooManyAssignees(limit: Assignees.taskLimit) }
        }
        if !labels.isEmpty {
            task.labels = try labels.map(Labels.validName)
            if task.labels.count > Labels.taskLimit { throw PMError.tooMany(.labels, limit: Labels.taskLimit) }
        }
        task.priority = priority
        if due != nil { task.dueTime = dueTime }
        // A series starts with its first card, from its deadline.
        task.recur = recur.map { Series(rule: $0, series: id, start: due ?? .first, until: until) }
        tasks.append(task)
        // The task did not exist before: an add never scans the board.
        history.append(
            HistoryEvent(id: eventID, at: time, by: user, action: .added, taskID: id, title: task.title, to: .todo),
            before: nil)
        return task
    }

    /// What `edit` may change; nil leaves a field as it is.
    public struct Edit: Sendable {
        public var title: String?
        public var body: String?
        /// `.some(nil)` removes the deadline.
        public var due: CivilDate??
        /// The time of day that goes with a new `due`; nil for a floating day.
        public var dueTime: DueTime?
        /// `.some(nil)` takes the priority away.
        public var priority: Priority??

        public init(
            title: String? = nil, body: String? = nil, due: CivilDate?? = nil, dueTime: DueTime? = nil,
            priority: Priority?? = nil
        ) {
            self.title = title
            self.body = body
            self.due = due
            self.dueTime = dueTime
            self.priority = priority
        }
    }

    /// Changes a task's title, body or deadline. An edit that changes nothing
    /// records nothing.
    /// - Returns: the task after the edit.
    @discardableResult
    public mutating func edit(_ id: TaskID, _ edit: Edit, eventID: TaskID, by user: String, at time: String) throws -> BoardTask {
        guard let index = tasks.firstIndex(where: { $0.id == id }) else { throw PMError.taskNotFound(id.rawValue) }
        var task = tasks[index]
        var changes: [FieldChange] = []
        // Setting a field that holds a conflict picks that value, even the one shown.
        if let title = edit.title {
            let valid = try TaskInput.validTitle(title)
            if valid != task.title || task.conflicts["title"] != nil {
                changes.append(FieldChange(field: "title", from: .string(task.title), to: .string(valid)))
            }
            task.title = valid
            task.conflicts["title"] = nil
        }
        if let body = edit.body {
            let valid = try TaskInput.validBody(body)
            if valid != task.body || task.conflicts["body"] != nil {
                changes.append(FieldChange(field: "body", from: .string(task.body), to: .string(valid)))
            }
            task.body = valid
            task.conflicts["body"] = nil
        }
        if let due = edit.due {
            changes += Self.deadlineChanges(of: &task, to: due, time: due == nil ? nil : edit.dueTime)
        }
        if let priority = edit.priority, priority != task.priority || task.conflicts["priority"] != nil {
            let value = { (priority: Priority?) in priority.map { JSONValue.string($0.rawValue) } ?? .null }
            changes.append(FieldChange(field: "priority", from: value(task.priority), to: value(priority)))
            task.priority = priority
            task.conflicts["priority"] = nil
        }
        guard !changes.isEmpty else { return task }
        task.updatedAt = time
        history.append(
            HistoryEvent(id: eventID, at: time, by: user, action: .edited, taskID: id, title: task.title, changes: changes),
            before: tasks[index])
        tasks[index] = task
        return task
    }

    /// The changes that set a deadline: its day and its time (the log
    /// writes those whose value changed or held a conflict); none when
    /// neither changes.
    static func deadlineChanges(of task: inout BoardTask, to due: CivilDate?, time: DueTime?) -> [FieldChange] {
        let timeField = CardField.dueTime.name
        guard due != task.due || time != task.dueTime || task.conflicts["due"] != nil || task.conflicts[timeField] != nil
        else { return [] }
        var changes = [
            FieldChange(
                field: "due", from: task.due.map { .string($0.description) } ?? .null,
                to: due.map { .string($0.description) } ?? .null)
        ]
        // A whole day that stays one writes no time.
        if time != nil || task.dueTime != nil || task.conflicts[timeField] != nil {
            changes.append(FieldChange(field: timeField, from: task.dueTime?.value ?? .null, to: time?.value ?? .null))
        }
        task.due = due
        task.dueTime = time
        task.conflicts["due"] = nil
        task.conflicts[timeField] = nil
        return changes
    }

    /// Assigns the task to `adding` and takes it from `removing` (names as
    /// ``Assignees/validName(_:)`` keeps them). A name already assigned, or
    /// not assigned, changes nothing; a change of nothing records nothing.
    /// - Returns: the task before and after.
    @discardableResult
    public mutating func assign(
        _ id: TaskID, adding: [String] = [], removing: [String] = [], eventID: TaskID, by user: String, at time: String
    ) throws -> (before: BoardTask, after: BoardTask) {
        guard let index = tasks.firstIndex(where: { $0.id == id }) else { throw PMError.taskNotFound(id.rawValue) }
        let before = tasks[index]
        var names = Set(before.assignees)
        var changes: [FieldChange] = []
        for name in try adding.map(Assignees.validName) {
            // A name already shown is assigned again all the same: an
            // unassignment made at the same time elsewhere, which did not
            // see this, must not win (add wins; issue 43, item 16).
            let added = names.insert(name).inserted
            changes.append(FieldChange(field: Assignees.field(name), from: .bool(!added), to: .bool(true)))
        }
        for name in try removing.map(Assignees.keptName) where names.remove(name) != nil {
            changes.append(FieldChange(field: Assignees.field(name), from: .bool(true), to: .bool(false)))
        }
        guard !changes.isEmpty else { return (before, before) }
        if names.count > Assignees.taskLimit, names.count > before.assignees.count {
            throw PMError.tooManyAssignees(limit: Assignees.taskLimit)
        }
        tasks[index].assignees = Array(names)
        tasks[index].updatedAt = time
        history.append(
            HistoryEvent(id: eventID, at: time, by: user, action: .edited, taskID: id, title: before.title, changes: changes),
            before: before)
        return (before, tasks[index])
    }

    /// Moves a task to another column; moving to its own column changes nothing.
    /// - Returns: the task before and after.
    @discardableResult
    public mutating func move(_ id: TaskID, to state: TaskState, eventID: TaskID, by user: String, at time: String) throws -> (
        before: BoardTask, after: BoardTask
    ) {
        guard let index = tasks.firstIndex(where: { $0.id == id }) else { throw PMError.taskNotFound(id.rawValue) }
        let before = tasks[index]
        guard before.state != state || before.conflicts["state"] != nil else { return (before, before) }
        tasks[index].state = state
        tasks[index].conflicts["state"] = nil
        tasks[index].updatedAt = time
        history.append(
            HistoryEvent(
                id: eventID, at: time, by: user, action: .moved, taskID: id, title: before.title, from: before.state, to: state),
            before: before)
        return (before, tasks[index])
    }

    /// Deletes a task.
    /// - Returns: the deleted task, whole.
    @discardableResult
    public mutating func delete(_ id: TaskID, eventID: TaskID, by user: String, at time: String) throws -> BoardTask {
        guard let index = tasks.firstIndex(where: { $0.id == id }) else { throw PMError.taskNotFound(id.rawValue) }
        let task = tasks.remove(at: index)
        history.append(
            HistoryEvent(id: eventID, at: time, by: user, action: .removed, taskID: id, title: task.title, from: task.state),
            before: task)
        return task
    }
}
