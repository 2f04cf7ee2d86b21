/// One change to one task, as undo sees it: the task before and after
/// (nil when it did not exist), and the history event that recorded it.
///
/// Undoing a transition is itself a transition (after → before), which is
/// what redo reverts: the two stacks hold the same kind of value.
public struct Transition: Equatable, Sendable {
    /// The task before the change; nil for an add.
    public var from: BoardTask?
    /// The task after the change; nil for a delete.
    public var to: BoardTask?
    /// The history event of the change.
    public var eventID: TaskID
    /// When, ISO 8601 UTC.
    public var at: String

    public init(from: BoardTask?, to: BoardTask?, eventID: TaskID, at: String) {
        self.from = from
        self.to = to
        self.eventID = eventID
        self.at = at
    }

    /// The task this transition is about.
    public var taskID: TaskID? { to?.id ?? from?.id }
}

/// One user's undo and redo stacks for one board, kept in their state directory.
public struct UndoState: Equatable, Sendable {
    /// The deepest undo history kept.
    public static let depth = 200

    /// Oldest first; the last is undone next.
    public var undo: [Transition]
    /// Oldest first; the last is redone next.
    public var redo: [Transition]

    public init(undo: [Transition] = [], redo: [Transition] = []) {
        self.undo = undo
        self.redo = redo
    }

    /// Records a new change: it can be undone, and nothing can be redone any more.
    public mutating func record(_ transitions: [Transition]) {
        guard !transitions.isEmpty else { return }
        undo += transitions
        if undo.count > Self.depth { undo.removeFirst(undo.count - Self.depth) }
        redo.removeAll()
    }
}

extension Board {
    /// Reverts a transition: the task must still be exactly as the transition
    /// left it; it goes back to how it was before, with a new `updatedAt`.
    /// Records the change in the history like any other.
    /// - Returns: the transition this made (which reverting again undoes).
    /// - Throws: ``PMError/undoConflict(title:by:at:)`` when someone changed
    ///   the task since; the board is then unchanged.
    public mutating func revert(_ transition: Transition, eventID: TaskID, by user: String, at time: String) throws -> Transition
    {
        guard let id = transition.taskID else { throw PMError.nothingToUndo }
        let index = tasks.firstIndex { $0.id == id }
        let current = index.map { tasks[$0] }
        guard current == transition.to else { throw try conflict(on: id, title: current?.title ?? transition.from?.title ?? "") }
        var restored = transition.from
        restored?.updatedAt = time
        switch (index, restored) {
        case (let index?, let task?): tasks[index] = task
        case (let index?, nil): tasks.remove(at: index)
        case (nil, let task?):
            // Back where creation order puts it, so the file's order stays stable.
            let position = tasks.firstIndex { ($0.createdAt, $0.id) > (task.createdAt, task.id) } ?? tasks.endIndex
            tasks.insert(task, at: position)
        case (nil, nil): break
        }
        history.append(Self.event(from: current, to: restored, id: eventID, by: user, at: time))
        return Transition(from: current, to: restored, eventID: eventID, at: time)
    }

    private func conflict(on id: TaskID, title: String) throws -> PMError {
        let last = try history.events().last { $0.taskID == id }
        return PMError.undoConflict(title: title, by: last?.by, at: last?.at)
    }

    /// The history event that describes going from `old` to `new`.
    static func event(from old: BoardTask?, to new: BoardTask?, id: TaskID, by user: String, at time: String) -> HistoryEvent {
        switch (old, new) {
        case (nil, let task?):
            return HistoryEvent(id: id, at: time, by: user, action: .added, taskID: task.id, title: task.title, to: task.state)
        case (let task?, nil):
            return HistoryEvent(
                id: id, at: time, by: user, action: .removed, taskID: task.id, title: task.title, from: task.state)
        case (let before?, let after?):
            var changes: [FieldChange] = []
            if before.title != after.title {
                changes.append(FieldChange(field: "title", from: .string(before.title), to: .string(after.title)))
            }
            if before.body != after.body {
                changes.append(FieldChange(field: "body", from: .string(before.body), to: .string(after.body)))
            }
            if before.due != after.due {
                changes.append(
                    FieldChange(
                        field: "due", from: before.due.map { .string($0.description) } ?? .null,
                        to: after.due.map { .string($0.description) } ?? .null))
            }
            if before.state != after.state {
                return HistoryEvent(
                    id: id, at: time, by: user, action: .moved, taskID: after.id, title: after.title, from: before.state,
                    to: after.state, changes: changes)
            }
            return HistoryEvent(
                id: id, at: time, by: user, action: .edited, taskID: after.id, title: after.title, changes: changes)
        case (nil, nil):
            return HistoryEvent(id: id, at: time, by: user, action: .edited, taskID: id, title: "")
        }
    }
}
