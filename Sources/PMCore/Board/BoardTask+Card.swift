/// A card's labels, priority, checklist and comments as log fields
/// (``CardField``): what the fold sets and reads back.
extension BoardTask {
    /// The value `field` holds now, as the log writes it.
    public func value(of field: CardField) -> JSONValue {
        switch field {
        case .assignee(let name): return .bool(Assignees.place(of: name, in: assignees).found)
        case .label(let name): return .bool(Assignees.place(of: name, in: labels).found)
        case .priority: return priority.map { .string($0.rawValue) } ?? .null
        case .item(let id, let part): return allItems.first { $0.id == id }?.value(part) ?? .null
        case .comment(let id): return allComments.first { $0.id == id }?.value ?? .null
        case .recur: return recur?.value ?? .null
        case .dueTime: return dueTime?.value ?? .null
        }
    }

    /// Sets `field` to a value the gate admitted (a value of another shape
    /// changes nothing).
    mutating func set(_ field: CardField, to value: JSONValue) {
        switch field {
        case .assignee(let name):
            guard case .bool(let assigned) = value else { return }
            setAssigned([name: assigned])
        case .label(let name):
            guard case .bool(let present) = value else { return }
            setLabel(name, present)
        case .priority:
            switch value {
            case .null: priority = nil
            case .string(let name): priority = Priority(rawValue: name) ?? priority
            default: return
            }
        case .item(let id, let part): setItem(id, part, to: value)
        case .comment(let id): setComment(id, to: value)
        case .recur:
            if value == .null {
                recur = nil
            } else if let series = Series(value: value) {
                recur = series
            }
        case .dueTime:
            if value == .null {
                dueTime = nil
            } else if let time = DueTime(value: value) {
                dueTime = time
            }
        }
    }

    private mutating func setLabel(_ name: String, _ present: Bool) {
        let (index, found) = Assignees.place(of: name, in: labels)
        guard present != found else { return }
        var names = labels
        if present { names.insert(name, at: index) } else { names.remove(at: index) }
        labels = names
    }

    private mutating func setItem(_ id: String, _ part: CardField.ItemPart, to value: JSONValue) {
        var items = allItems
        let index = items.firstIndex { $0.id == id }
        var item = index.map { items[$0] } ?? ChecklistItem(id: id, text: nil)
        switch (part, value) {
        case (.text, .string(let text)): item.text = text
        case (.text, .null): item.text = nil
        case (.done, .bool(let done)): item.done = done
        case (.position, .string(let position)): item.position = position
        case (.position, .null): item.position = ""
        case (.removed, .bool(let removed)): item.removed = removed
        default: return
        }
        guard item != index.map({ items[$0] }) else { return }
        if let index { items[index] = item } else { items.append(item) }
        // A part that names nothing leaves no item behind.
        if item.text == nil, !item.done, item.position.isEmpty, !item.removed { items.removeAll { $0.id == id } }
        allItems = items
    }

    private mutating func setComment(_ id: String, to value: JSONValue) {
        var comments = allComments
        comments.removeAll { $0.id == id }
        if let comment = Comment(id: id, value: value) { comments.append(comment) }
        allComments = comments
    }

    /// The log fields of its labels, priority, checklist and comments that
    /// hold something: what a creation or a deletion carries.
    var cardFields: [CardField] {
        var fields: [CardField] = labels.map(CardField.label)
        if priority != nil { fields.append(.priority) }
        if recur != nil { fields.append(.recur) }
        if dueTime != nil { fields.append(.dueTime) }
        for item in allItems {
            for part in CardField.ItemPart.allCases where item.value(part) != .null && item.value(part) != .bool(false) {
                fields.append(.item(item.id, part))
            }
        }
        fields += allComments.map { .comment($0.id) }
        return fields
    }

    /// The checklist's progress: items ticked, and items shown.
    public var progress: (done: Int, total: Int) { box.progress }
}

extension BoardTask {
    /// Urgent first, none last; the board's reading order (``byDeadline(_:)``) within each.
    public static func byPriority(_ tasks: [BoardTask]) -> [BoardTask] {
        let byDue = byDeadline(tasks)
        let ranks = byDue.map { -($0.priority?.rank ?? 0) }
        var indices = Array(byDue.indices)
        indices.sort { ranks[$0] != ranks[$1] ? ranks[$0] < ranks[$1] : $0 < $1 }
        return indices.map { byDue[$0] }
    }
}
