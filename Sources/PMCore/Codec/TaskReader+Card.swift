/// A card's labels, priority, checklist and comments as a board file or the
/// undo state holds them, each checked as the gate checks them in an event
/// (``EventProblem``): what pm reads back is what it would admit.
struct CardRead {
    var labels: [String] = []
    var priority: Priority?
    var checklist: [ChecklistItem] = []
    var comments: [Comment] = []

    /// Reads the key numbered `known` (12 labels, 13 priority, 14 checklist, 15 comments).
    mutating func read(_ known: Int, _ reader: inout JSONReader, field: String) throws {
        let start = reader.index
        let value = try reader.readValue()
        let fail = JSONReader.Failure(offset: start, reason: .field(field))
        switch (known, value) {
        case (12, _): labels = try BoardDecoder.names(in: value) ?? { throw fail }()
        case (13, .null): priority = nil
        case (13, .string(let name)): priority = try Priority(rawValue: name) ?? { throw fail }()
        case (14, .array(let elements)):
            checklist = try elements.map { try Self.item($0) ?? { throw fail }() }
            guard checklist.count <= ChecklistItem.cardLimit * 2, Set(checklist.map(\.id)).count == checklist.count,
                checklist == checklist.sorted(by: ChecklistItem.precedes)
            else { throw fail }
        case (15, .array(let elements)):
            comments = try elements.map { try Self.comment($0) ?? { throw fail }() }
            guard comments.count <= Comment.cardLimit * 2, Set(comments.map(\.id)).count == comments.count,
                comments == comments.sorted(by: Comment.precedes)
            else { throw fail }
        default: throw fail
        }
    }

    /// An item as ``BoardEncoder`` writes it.
    static func item(_ value: JSONValue) -> ChecklistItem? {
        guard case .object(let members) = value, case .string(let id)? = members["id"], ItemID.isValid(id),
            case .bool(let done)? = members["done"]
        else { return nil }
        var item = ChecklistItem(id: id, text: nil, done: done)
        for (key, value) in members {
            switch (key, value) {
            case ("id", _), ("done", _): continue
            case ("text", .string(let text)) where CardValues.isItemText(text): item.text = text
            case ("position", .string(let position)) where Position.isValid(position): item.position = position
            case ("removed", .bool(let removed)): item.removed = removed
            default: return nil
            }
        }
        return item
    }

    /// A comment as ``BoardEncoder`` writes it.
    static func comment(_ value: JSONValue) -> Comment? {
        guard case .object(var members) = value, case .string(let id)? = members.removeValue(forKey: "id"),
            ItemID.isValid(id), let comment = Comment(id: id, value: .object(members)), CardValues.isComment(comment)
        else { return nil }
        return comment
    }
}

extension BoardDecoder {
    /// Names pm keeps, each once, sorted by bytes; nil for anything else.
    static func names(in value: JSONValue) -> [String]? {
        guard case .array(let values) = value else { return nil }
        var names: [String] = []
        for value in values {
            guard case .string(let name) = value, Assignees.isValid(name) else { return nil }
            names.append(name)
        }
        return names == Assignees.sorted(names) ? names : nil
    }
}

/// What a card's parts may hold, wherever they come from.
enum CardValues {
    /// An item's text as pm keeps it: something visible, within the limit.
    static func isItemText(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: TaskInput.isVisible) && text.count <= ChecklistItem.textLimit
    }

    /// A comment as pm keeps it: an author's name, times pm writes, a text
    /// within the limit (or none: withdrawn).
    static func isComment(_ comment: Comment) -> Bool {
        guard Assignees.isValid(comment.by), EventProblem.isStoredTime(comment.at) else { return false }
        if let edited = comment.edited, !EventProblem.isStoredTime(edited) { return false }
        guard let text = comment.text else { return true }
        return text.unicodeScalars.contains(where: TaskInput.isVisible) && text.count <= Comment.textLimit
    }
}
