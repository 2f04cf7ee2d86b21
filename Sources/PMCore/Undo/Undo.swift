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
    /// Shared by the transitions of one command that undo takes back as one
    /// step (an import); nil for a transition that is a step of its own.
    public var batch: TaskID?
    /// A change to a saved view instead of a task (`from` and `to` are then nil).
    public var view: ViewTransition?

    public init(from: BoardTask?, to: BoardTask?, eventID: TaskID, at: String, batch: TaskID? = nil) {
        self.from = from
        self.to = to
        self.eventID = eventID
        self.at = at
        self.batch = batch
    }

    /// A change to a saved view.
    public init(view: ViewTransition, eventID: TaskID, at: String) {
        self.init(from: nil, to: nil, eventID: eventID, at: at)
        self.view = view
    }

    /// The task this transition is about (for a view, its events' task).
    public var taskID: TaskID? { view.map { SavedView.eventTask($0.name) } ?? to?.id ?? from?.id }

    /// Whether the transition is one a change could have made: about one
    /// task (both sides share its id) and not empty, or about one view,
    /// saved or deleted. A state file that says otherwise was damaged or
    /// crafted.
    public var isWellFormed: Bool {
        if let view { return from == nil && to == nil && (view.from != nil || view.to != nil) && Assignees.isValid(view.name) }
        switch (from, to) {
        case (nil, nil): return false
        case (let a?, let b?): return a.id == b.id
        default: return true
        }
    }

    /// The fields the change set: all of them when it created or deleted the
    /// task, else those whose value differs. Undo compares these and nothing
    /// else (never timestamps), so it works however many undos came before.
    public var fields: [TaskField] {
        guard let from, let to else { return TaskField.allCases }
        return TaskField.allCases.filter { !$0.same(from, to) }
    }

    /// The names the change assigned or took off (each its own field, as in
    /// the log): undo compares and puts back only these, so a colleague's
    /// assignment of someone else since never blocks it.
    public var assigneeNames: [String] {
        let before = Set(from?.assignees ?? [])
        let after = Set(to?.assignees ?? [])
        return Assignees.sorted(before.symmetricDifference(after))
    }

    /// The labels, priority, checklist parts and comments the change set
    /// (each its own field, as in the log): undo compares and puts back only these.
    public var cardFields: [CardField] {
        guard let from, let to else { return [] }
        var names = Set(from.cardFields.map(\.name))
        names.formUnion(to.cardFields.map(\.name))
        return names.sorted().compactMap(CardField.init).filter { from.value(of: $0) != to.value(of: $0) }
    }

    /// Whether `now` still holds, for every field and name the change set,
    /// what `after` holds — or the change's value is still there beside a
    /// colleague's written at the same time (a conflict: nobody changed it
    /// after seeing it, so taking it back leaves theirs; issue 44, item 3).
    func stillHolds(_ now: BoardTask, as after: BoardTask) -> Bool {
        fields.allSatisfy { $0.same(now, after) || now.heads[$0.rawValue]?.contains { $0.event == eventID } == true }
            && assigneeNames.allSatisfy { now.assignees.contains($0) == after.assignees.contains($0) }
            && cardFields.allSatisfy { field in
                now.value(of: field) == after.value(of: field)
                    || now.heads[field.name]?.contains { $0.event == eventID } == true
            }
    }
}

/// A field of a task that a change can set.
public enum TaskField: String, CaseIterable, Sendable {
    case title, body, due, state

    /// Whether `a` and `b` hold the same value in this field.
    func same(_ a: BoardTask, _ b: BoardTask) -> Bool {
        switch self {
        case .title: return a.title == b.title
        case .body: return a.body == b.body
        case .due: return a.due == b.due
        case .state: return a.state == b.state
        }
    }

    /// Copies this field's value from `source` into `task`.
    func copy(from source: BoardTask, into task: inout BoardTask) {
        switch self {
        case .title: task.title = source.title
        case .body: task.body = source.body
        case .due: task.due = source.due
        case .state: task.state = source.state
        }
    }
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
        apply(.record(transitions))
    }

    /// What the next undo takes back: the last transition, with the others
    /// of its batch (empty when there is nothing to undo).
    public var nextUndo: ArraySlice<Transition> { Self.lastStep(of: undo) }
    /// What the next redo puts back.
    public var nextRedo: ArraySlice<Transition> { Self.lastStep(of: redo) }

    /// The last step of a stack: its last transition and those before it
    /// sharing its batch.
    static func lastStep(of stack: [Transition]) -> ArraySlice<Transition> {
        guard let last = stack.last else { return [] }
        guard let batch = last.batch else { return stack[(stack.count - 1)...] }
        let start = stack.lastIndex { $0.batch != batch }.map { $0 + 1 } ?? 0
        return stack[start...]
    }

    /// Applies one step to the stacks.
    public mutating func apply(_ step: UndoStep) {
        switch step {
        case .record(let transitions):
            guard !transitions.isEmpty else { return }
            undo += transitions
            Self.trim(&undo)
            redo.removeAll()
        case .undone(let made):
            undo.removeLast(Self.lastStep(of: undo).count)
            redo += made
        case .redone(let made):
            redo.removeLast(Self.lastStep(of: redo).count)
            undo += made
            Self.trim(&undo)
        case .skipped:
            undo.removeLast(Self.lastStep(of: undo).count)
        }
    }

    /// Drops the oldest steps, whole, beyond ``depth`` transitions; the
    /// newest step stays even when it alone is deeper (an import).
    private static func trim(_ stack: inout [Transition]) {
        while stack.count > depth {
            var first = stack.startIndex + 1
            if let batch = stack[stack.startIndex].batch {
                first = stack.firstIndex { $0.batch != batch } ?? stack.endIndex
            }
            guard first < stack.endIndex else { return }
            stack.removeFirst(first)
        }
    }
}

/// What one command did to the stacks. The state file stores the stacks as
/// they were and the step as pending; the step counts only once its event is
/// on the board, so a kill between the two saves cannot leave them apart.
public enum UndoStep: Equatable, Sendable {
    /// A new change (usually one transition).
    case record([Transition])
    /// The last undo step was undone; `made` is what the undo changed.
    case undone(made: [Transition])
    /// The last redo step was redone; `made` is what the redo changed.
    case redone(made: [Transition])
    /// The last undo entry was dropped on purpose (`pm undo --skip`).
    case skipped

    /// The board event that proves the step happened; nil for a skip, which
    /// changes no board.
    public var eventID: TaskID? {
        switch self {
        case .record(let transitions), .undone(let transitions), .redone(let transitions): return transitions.last?.eventID
        case .skipped: return nil
        }
    }
}

/// Why an undo or redo was refused: someone else changed the task since.
public struct UndoConflict: Equatable, Sendable {
    /// The task's title, as last known.
    public var title: String
    /// Who made the blocking change and when, when known.
    public var by: String?
    public var at: String?
    /// The task no longer exists.
    public var deleted: Bool
    /// Refused a redo rather than an undo.
    public var redo: Bool
    /// About a saved view (`title` is its name) rather than a task.
    public var view: Bool

    public init(
        title: String, by: String? = nil, at: String? = nil, deleted: Bool = false, redo: Bool = false, view: Bool = false
    ) {
        self.title = title
        self.by = by
        self.at = at
        self.deleted = deleted
        self.redo = redo
        self.view = view
    }
}

extension Board {
    /// Reverts a transition: the fields the change set must still hold what it
    /// wrote (other fields may have changed since; they are kept). Records the
    /// change in the history like any other.
    /// - Parameter redo: only says which word the refusal uses.
    /// - Returns: the transition this made (which reverting again undoes).
    /// - Throws: ``PMError/undoConflict(_:)`` when someone changed those
    ///   fields since; the board is then unchanged.
    public mutating func revert(
        _ transition: Transition, eventID: TaskID, by user: String, at time: String, redo: Bool = false
    ) throws -> Transition {
        guard transition.isWellFormed, let id = transition.taskID else { throw PMError.nothingToUndo }
        if let view = transition.view {
            return try revert(view, of: transition, eventID: eventID, by: user, at: time, redo: redo)
        }
        let index = tasks.firstIndex { $0.id == id }
        let current = index.map { tasks[$0] }
        let fields = transition.fields
        let restored: BoardTask?
        switch (current, transition.from, transition.to) {
        case (let now?, let before, let after?) where transition.stillHolds(now, as: after):
            // Undoing an add removes the task; otherwise only the fields the
            // change set go back, and a colleague's change to others stays.
            if let before {
                var task = now
                for field in fields { field.copy(from: before, into: &task) }
                var names = Set(task.assignees)
                for name in transition.assigneeNames {
                    if before.assignees.contains(name) { names.insert(name) } else { names.remove(name) }
                }
                if names != Set(task.assignees) { task.assignees = Array(names) }
                for field in transition.cardFields { task.set(field, to: Self.undone(field, before: before, after: after)) }
                task.updatedAt = time
                restored = task
            } else {
                restored = nil
            }
        case (nil, let before?, nil):
            var task = before
            task.updatedAt = time
            restored = task
        default:
            throw PMError.undoConflict(try conflict(on: id, current: current, transition: transition, redo: redo))
        }
        tasks.put(restored, at: index)
        // Said as taking back the change's own value, where a colleague's
        // written at the same time is the one shown.
        var left = current
        if var shown = current, let after = transition.to {
            for field in fields where !field.same(shown, after) { field.copy(from: after, into: &shown) }
            for field in transition.cardFields where shown.value(of: field) != after.value(of: field) {
                shown.set(field, to: after.value(of: field))
            }
            left = shown
        }
        var entry = Self.event(from: left, to: restored, id: eventID, by: user, at: time)
        if redo { entry.redoes = transition.eventID } else { entry.undoes = transition.eventID }
        history.append(entry, before: current)
        return Transition(from: current, to: restored, eventID: eventID, at: time)
    }

    /// The value undo puts back in `field`: what it held before, except for a
    /// comment the change wrote: taken back, it stays withdrawn under its
    /// author's name, so that nobody else can ever write under its id.
    static func undone(_ field: CardField, before: BoardTask, after: BoardTask) -> JSONValue {
        let value = before.value(of: field)
        guard case .comment(let id) = field, value == .null, var written = Comment(id: id, value: after.value(of: field)) else {
            return value
        }
        written.text = nil
        return written.value
    }

    /// Whether every transition of a step can be reverted on this board as it is now.
    public func canRevert(step: ArraySlice<Transition>) -> Bool {
        !step.isEmpty && step.allSatisfy(canRevert)
    }

    /// Whether a transition can be reverted on this board as it is now.
    public func canRevert(_ transition: Transition) -> Bool {
        guard transition.isWellFormed, let id = transition.taskID else { return false }
        if let view = transition.view { return views[view.name]?.filter == view.to }
        let current = task(id)
        switch (current, transition.to) {
        case (let now?, let after?): return transition.stillHolds(now, as: after)
        case (nil, nil): return true
        default: return false
        }
    }

    private func conflict(on id: TaskID, current: BoardTask?, transition: Transition, redo: Bool) throws -> UndoConflict {
        let title = current?.title ?? transition.to?.title ?? transition.from?.title ?? ""
        let last = try history.lastEvent { $0.taskID == id }
        return UndoConflict(title: title, by: last?.by, at: last?.at, deleted: current == nil, redo: redo)
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
            if before.due != after.due || before.dueTime != after.dueTime {
                changes.append(
                    FieldChange(
                        field: "due", from: before.due.map { .string($0.description) } ?? .null,
                        to: after.due.map { .string($0.description) } ?? .null))
            }
            // Each name assigned or taken off, as the log keeps it.
            let (was, now) = (Set(before.assignees), Set(after.assignees))
            for name in Assignees.sorted(was.symmetricDifference(now)) {
                changes.append(
                    FieldChange(field: Assignees.field(name), from: .bool(was.contains(name)), to: .bool(now.contains(name))))
            }
            for field in Transition(from: before, to: after, eventID: id, at: time).cardFields {
                changes.append(
                    FieldChange(
                        field: field.name, from: before.value(of: field), to: after.value(of: field),
                        context: field.context(in: after) ?? field.context(in: before)))
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

    /// The history sentence's event for a transition, without recording it
    /// (for saying what `pm undo --skip` dropped).
    public static func describe(_ transition: Transition, by user: String) -> HistoryEvent {
        if let view = transition.view {
            return HistoryEvent.view(
                id: transition.eventID, at: transition.at, by: user, name: view.name, from: view.from?.value ?? .null,
                to: view.to?.value ?? .null)
        }
        return event(from: transition.from, to: transition.to, id: transition.eventID, by: user, at: transition.at)
    }
}
