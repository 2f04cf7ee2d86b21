import PMICU

/// A change to a card's labels, priority, checklist or comments: one
/// command, one event, one undo step.
public enum CardChange: Sendable, Equatable {
    case labels(adding: [String], removing: [String])
    case priority(Priority?)
    /// A new item, last, or before the item named by `before`; ticked
    /// already when `done` (a line typed `[x]` in the board's form).
    case addItem(text: String, before: String?, done: Bool = false)
    case renameItem(String, text: String)
    case tick(String, done: Bool)
    /// To its `place`th place among the items shown (1 is first).
    case moveItem(String, to: Int)
    case removeItem(String)
    case addComment(text: String)
    /// A new text, or nil to withdraw it.
    case editComment(String, text: String?)
    /// A recurring deadline's rule and series, or nil to end it (``Board/setRecurrence(_:_:eventID:by:at:)``).
    case recur(Series?)
}

extension Board {
    /// Changes a card's labels, priority, checklist or comments. A label
    /// given again, or an item ticked again, is written all the same (add
    /// wins: an opposite change made at the same time elsewhere must not
    /// take it away); any other change of nothing records nothing.
    /// - Returns: the task before and after.
    @discardableResult
    public mutating func change(
        _ id: TaskID, _ change: CardChange, eventID: TaskID, by user: String, at time: String
    ) throws -> (before: BoardTask, after: BoardTask) {
        guard let index = tasks.firstIndex(where: { $0.id == id }) else { throw PMError.taskNotFound(id.rawValue) }
        let before = tasks[index]
        var task = before
        var again: [String] = []
        try Self.apply(change, to: &task, newID: ItemID.derived(from: eventID.words.low), by: user, at: time, again: &again)
        var changes = Transition(from: before, to: task, eventID: eventID, at: time).cardFields.map { field in
            FieldChange(
                field: field.name, from: before.value(of: field), to: task.value(of: field),
                context: field.context(in: task))
        }
        for name in again where !changes.contains(where: { $0.field == name }) {
            changes.append(
                FieldChange(field: name, from: .bool(true), to: .bool(true), context: CardField(name)?.context(in: task)))
        }
        guard !changes.isEmpty else { return (before, before) }
        task.updatedAt = time
        tasks[index] = task
        history.append(
            HistoryEvent(id: eventID, at: time, by: user, action: .edited, taskID: id, title: before.title, changes: changes),
            before: before)
        return (before, task)
    }

    private static func apply(
        _ change: CardChange, to task: inout BoardTask, newID: String, by user: String, at time: String,
        again: inout [String]
    ) throws {
        switch change {
        case .labels(let adding, let removing):
            for name in try adding.map(Labels.validName) {
                if task.value(of: .label(name)) == .bool(true) { again.append(Labels.field(name)) }
                task.set(.label(name), to: .bool(true))
            }
            for name in try removing.map(Labels.keptName) { task.set(.label(name), to: .bool(false)) }
            if task.labels.count > Labels.taskLimit { throw PMError.tooMany(.labels, limit: Labels.taskLimit) }
        case .priority(let priority):
            task.priority = priority
            task.conflicts["priority"] = nil
        case .recur(let series):
            task.recur = series
            task.conflicts[CardField.recur.name] = nil
        case .addItem(let text, let before, let done):
            guard task.allItems.count < ChecklistItem.cardLimit else {
                throw PMError.tooMany(.items, limit: ChecklistItem.cardLimit)
            }
            let text = try validText(text, .items)
            let shown = task.checklist
            let slot = try before.map { try shown.firstIndex(of: findItem($0, in: task)) ?? shown.count } ?? shown.count
            task.set(.item(newID, .text), to: .string(text))
            if done { task.set(.item(newID, .done), to: .bool(true)) }
            place(newID, at: slot, in: &task)
        case .renameItem(let ref, let text):
            let id = try findItem(ref, in: task).id
            task.set(.item(id, .text), to: .string(try validText(text, .items)))
            task.conflicts[CardField.item(id, .text).name] = nil
        case .tick(let ref, let done):
            let id = try findItem(ref, in: task).id
            if done, task.value(of: .item(id, .done)) == .bool(true) { again.append(CardField.item(id, .done).name) }
            task.set(.item(id, .done), to: .bool(done))
        case .moveItem(let ref, let to):
            let item = try findItem(ref, in: task)
            place(item.id, at: max(0, to - 1), in: &task)
        case .removeItem(let ref):
            task.set(.item(try findItem(ref, in: task).id, .removed), to: .bool(true))
        case .addComment(let text):
            guard task.allComments.count < Comment.cardLimit else {
                throw PMError.tooMany(.comments, limit: Comment.cardLimit)
            }
            let comment = Comment(id: newID, by: user, at: time, text: try validText(text, .comments))
            task.set(.comment(newID), to: comment.value)
        case .editComment(let ref, let text):
            var comment = try findComment(ref, in: task)
            guard comment.by == user else { throw PMError.notYourComment(author: comment.by) }
            comment.text = try text.map { try validText($0, .comments) }
            comment.edited = time
            task.set(.comment(comment.id), to: comment.value)
        }
    }

    /// Puts item `id` at `place` among the other items shown: a position
    /// between its new neighbours', or, when there is none short enough,
    /// every item's spread out again.
    private static func place(_ id: String, at place: Int, in task: inout BoardTask) {
        var others = task.checklist.filter { $0.id != id }
        let index = min(place, others.count)
        let lower = index > 0 ? others[index - 1].position : nil
        let upper = index < others.count ? others[index].position : nil
        let fits = lower.map { lower in upper.map { lower.utf8.lexicographicallyPrecedes($0.utf8) } ?? true } ?? true
        let position = Position.between(lower, upper)
        if fits, position.utf8.count <= Position.limit - 16, upper != "" {
            task.set(.item(id, .position), to: .string(position))
            return
        }
        others.insert(ChecklistItem(id: id, text: nil), at: index)
        for (item, position) in zip(others, Position.spread(others.count)) {
            task.set(.item(item.id, .position), to: .string(position))
        }
    }

    /// The item shown `ref`th (1 is first) or whose id is `ref`.
    static func findItem(_ ref: String, in task: BoardTask) throws -> ChecklistItem {
        let shown = task.checklist
        if let number = Int(ref), number >= 1, number <= shown.count { return shown[number - 1] }
        if let item = shown.first(where: { $0.id == ref.lowercased() }) { return item }
        throw PMError.partNotFound(.items, ref)
    }

    /// The comment shown `ref`th (1 is the oldest) or whose id is `ref`.
    static func findComment(_ ref: String, in task: BoardTask) throws -> Comment {
        let shown = task.comments
        if let number = Int(ref), number >= 1, number <= shown.count { return shown[number - 1] }
        if let comment = shown.first(where: { $0.id == ref.lowercased() }) { return comment }
        throw PMError.partNotFound(.comments, ref)
    }

    /// An item's text (one line) or a comment's (line breaks and tabs
    /// allowed), as pm keeps it.
    static func validText(_ typed: String, _ part: CardPart) throws -> String {
        let text = TaskInput.trimmed(typed)
        guard text.unicodeScalars.contains(where: TaskInput.isVisible) else { throw PMError.emptyText(part) }
        let allowed: Set<Unicode.Scalar> = part == .comments ? ["\n", "\t"] : []
        if let scalar = text.unicodeScalars.first(where: { !allowed.contains($0) && TextSafety.isUnsafe($0) }) {
            throw PMError.unsafeText(part, scalar)
        }
        let limit = part == .comments ? Comment.textLimit : ChecklistItem.textLimit
        guard text.count <= limit else { throw PMError.textTooLong(part, length: text.count, limit: limit) }
        return text
    }
}
