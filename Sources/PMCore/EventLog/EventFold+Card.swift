/// The fold's rules for a card's parts (``CardField``, ``MergeRule``).
extension FoldedTasks {
    /// Whether `author` may write `value` into comment `id`: only a
    /// comment's author writes it (a new one, a rewrite, a withdrawal), and
    /// a rewrite keeps its author and time. Anything else is passed over, on
    /// every copy alike.
    static func mayWrite(comment id: String, _ value: JSONValue, by author: String, on task: BoardTask) -> Bool {
        let existing = task.allComments.first { $0.id == id }
        guard let new = Comment(id: id, value: value) else {
            return value == .null && (existing == nil || existing?.by == author)
        }
        guard new.by == author else { return false }
        guard let existing else { return true }
        return existing.by == author && existing.at == new.at
    }

    /// A field whose heads any of which says true shows true (an assignee,
    /// a label, a tick, a removal: add wins): what its opposite did not see
    /// keeps it. A field without heads keeps what it shows, as every field does.
    static func showAnyTrue(_ name: String, of task: inout BoardTask, assignments: inout [String: Bool]) {
        guard let heads = task.heads[name], !heads.isEmpty else { return }
        let shown = heads.contains { $0.value == .bool(true) }
        if let assignee = Assignees.name(ofField: name) {
            assignments[assignee] = shown
        } else if let field = CardField(name) {
            task.set(field, to: .bool(shown))
        }
    }
}
