/// What an event may write into a card's labels, priority, checklist and
/// comments (``CardField``): values pm keeps as they are, so that a board
/// holding them reads back, whichever copy wrote them.
enum CardCheck {
    /// Whether a change of `field` may be folded. A deletion names what it
    /// took away (new values null); the values a change replaced or chose
    /// against may be anything the field could hold.
    static func admits(_ field: CardField, _ values: FieldChangeValues, deletion: Bool) -> Bool {
        let new = deletion ? values.new == .null : isNew(values.new, for: field)
        return new && ([values.old] + values.conflicts).allSatisfy { $0 == .null || isKept($0, for: field) }
    }

    /// A value a change may write.
    private static func isNew(_ value: JSONValue, for field: CardField) -> Bool {
        switch (field, value) {
        case (.assignee(let name), .bool), (.label(let name), .bool): return Assignees.isAdmissible(name)
        case (.priority, .null), (.recur, .null), (.dueTime, .null): return true
        // An undone addition takes the item's text and place back: pm's own
        // undo writes them null (issue 47: refused, the undo stayed on the
        // copy that made it while every other kept the item).
        case (.item(_, .text), .null), (.item(_, .position), .null): return true
        case (.comment(let id), .null): return ItemID.isValid(id)
        default: return isKept(value, for: field)
        }
    }

    /// A value the field may hold.
    private static func isKept(_ value: JSONValue, for field: CardField) -> Bool {
        switch (field, value) {
        case (.assignee(let name), .bool), (.label(let name), .bool): return Assignees.isValid(name)
        case (.priority, .string(let name)): return Priority(rawValue: name) != nil
        case (.recur, _): return Series(value: value) != nil
        case (.dueTime, _): return DueTime(value: value) != nil
        case (.item(_, .text), .string(let text)): return CardValues.isItemText(text)
        case (.item(_, .done), .bool), (.item(_, .removed), .bool): return true
        case (.item(_, .position), .string(let position)): return Position.isValid(position)
        case (.comment(let id), _):
            guard let comment = Comment(id: id, value: value) else { return false }
            return CardValues.isComment(comment)
        default: return false
        }
    }
}
