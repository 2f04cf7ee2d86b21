/// A card's labels, priority, checklist and comments as a board file or the
/// undo state holds them, each checked as the gate checks them in an event
/// (``EventProblem``): what pm reads back is what it would admit.
struct CardRead {
    var labels: [String] = []
    var priority: Priority?
    var checklist: [ChecklistItem] = []
    var comments: [Comment] = []
    var recur: Series?
    var dueTime: DueTime?

    /// Reads the key numbered `known` (12 labels, 13 priority, 14 checklist,
    /// 15 comments, 16 recurring deadline, 17 deadline time).
    mutating func read(_ known: Int, _ reader: inout JSONReader, field: String) throws {
        let start = reader.index
        let fail = JSONReader.Failure(offset: start, reason: .field(field))
        // The checklist and comments read element by element, each key
        // matched on its bytes: made into values first, a card's parts
        // were most of the time a change took to read the undo state.
        switch known {
        case 14:
            checklist = try Self.elements(&reader, fail) { try Self.item(&$0, fail) }
            guard checklist.count <= ChecklistItem.cardLimit * 2, Set(checklist.map(\.id)).count == checklist.count,
                checklist == checklist.sorted(by: ChecklistItem.precedes)
            else { throw fail }
            return
        case 15:
            comments = try Self.elements(&reader, fail) { try Self.comment(&$0, fail) }
            guard comments.count <= Comment.cardLimit * 2, Set(comments.map(\.id)).count == comments.count,
                comments == comments.sorted(by: Comment.precedes)
            else { throw fail }
            return
        default: break
        }
        let value = try reader.readValue()
        switch (known, value) {
        case (12, _): labels = try BoardDecoder.names(in: value) ?? { throw fail }()
        case (13, .null): priority = nil
        case (13, .string(let name)): priority = try Priority(rawValue: name) ?? { throw fail }()
        case (16, .null): recur = nil
        case (16, _): recur = try Series(value: value) ?? { throw fail }()
        case (17, .null): dueTime = nil
        case (17, _): dueTime = try DueTime(value: value) ?? { throw fail }()
        default: throw fail
        }
    }

    /// The elements of an array, each read by `element`.
    private static func elements<Element>(
        _ reader: inout JSONReader, _ fail: JSONReader.Failure, _ element: (inout JSONReader) throws -> Element
    ) throws -> [Element] {
        guard try reader.peek() == UInt8(ascii: "[") else { throw fail }
        try reader.beginArray()
        var read: [Element] = []
        var first = true
        while try reader.nextElement(first: &first) {
            reader.skipWhitespace()
            read.append(try element(&reader))
        }
        return read
    }

    private static let itemKeys = KnownKeys(["id", "done", "text", "position", "removed"])
    private static let commentKeys = KnownKeys(["id", "by", "at", "text", "edited"])

    /// An item as ``BoardEncoder`` writes it, read where it lies.
    private static func item(_ reader: inout JSONReader, _ fail: JSONReader.Failure) throws -> ChecklistItem {
        var item = ChecklistItem(id: "", text: nil)
        var (hasID, hasDone) = (false, false)
        try reader.readObject(known: itemKeys) { known, _, reader in
            let value = try reader.readValue()
            switch (known, value) {
            case (0, .string(let id)) where ItemID.isValid(id): (item.id, hasID) = (id, true)
            case (1, .bool(let done)): (item.done, hasDone) = (done, true)
            case (2, .string(let text)) where CardValues.isItemText(text): item.text = text
            case (3, .string(let position)) where Position.isValid(position): item.position = position
            case (4, .bool(let removed)): item.removed = removed
            default: throw fail
            }
        }
        guard hasID, hasDone else { throw fail }
        return item
    }

    /// A comment as ``BoardEncoder`` writes it, read where it lies.
    private static func comment(_ reader: inout JSONReader, _ fail: JSONReader.Failure) throws -> Comment {
        var (id, by, at, edited): (String?, String?, String?, String?) = (nil, nil, nil, nil)
        var text: String??
        try reader.readObject(known: commentKeys) { known, _, reader in
            let value = try reader.readValue()
            switch (known, value) {
            case (0, .string(let read)) where ItemID.isValid(read): id = read
            case (1, .string(let read)): by = read
            case (2, .string(let read)): at = read
            case (3, .string(let read)): text = .some(read)
            case (3, .null): text = .some(nil)
            case (4, .string(let read)): edited = read
            default: throw fail
            }
        }
        guard let id, let by, let at, let text else { throw fail }
        let comment = Comment(id: id, by: by, at: at, text: text, edited: edited)
        guard CardValues.isComment(comment) else { throw fail }
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
