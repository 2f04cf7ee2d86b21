import FoundationEssentials

/// A card's labels, priority, checklist and comments in a board file, the
/// undo state (`output: false`: everything the fold keeps, removed items and
/// withdrawn comments too) and `--json` (`output: true`: what a card shows).
extension BoardEncoder {
    /// The card keys of `task` that are written, sorted, each with its writer:
    /// in `--json` always, elsewhere only those that hold something.
    typealias CardKeys = (
        early: [(String, (inout JSONWriter) -> Void)], labels: ((inout JSONWriter) -> Void)?,
        priority: ((inout JSONWriter) -> Void)?, recur: ((inout JSONWriter) -> Void)?
    )

    static func cardKeys(of task: BoardTask, output: Bool, level: Int) -> CardKeys {
        var early: [(String, (inout JSONWriter) -> Void)] = []
        let items = output ? task.checklist : task.allItems
        if output || !items.isEmpty {
            early.append(("checklist", { writeItems(items, output: output, level: level, into: &$0) }))
        }
        let comments = output ? task.comments : task.allComments
        if output || !comments.isEmpty {
            early.append(("comments", { writeComments(comments, level: level, into: &$0) }))
        }
        let labels = task.labels
        let priority = task.priority
        let recur = task.recur
        return (
            early, output || !labels.isEmpty ? { writeNames(labels, into: &$0) } : nil,
            output || priority != nil
                ? { writer in if let priority { writer.string(priority.rawValue) } else { writer.raw("null") } } : nil,
            output || recur != nil ? { writer in writer.value(recur?.value ?? .null, level: level + 1) } : nil
        )
    }

    /// The deadline's time (``DueTime``): in `--json` always (null for none,
    /// and for a time without a day, which a merge of a pm that writes only
    /// the day can leave), with `at`, the instant in UTC; elsewhere, as the
    /// fold keeps it, whenever there is one.
    static func dueTimeKey(of task: BoardTask, output: Bool, level: Int) -> ((inout JSONWriter) -> Void)? {
        guard let time = task.dueTime else { return output ? { $0.raw("null") } : nil }
        var value = time.value
        if output {
            guard let due = task.due, case .object(var members) = value else { return { $0.raw("null") } }
            members["at"] = .string(Timestamp.string(from: Date(timeIntervalSince1970: Double(time.instant(on: due)))))
            value = .object(members)
        }
        return { $0.value(value, level: level + 1) }
    }

    /// The deadline's day (the value of `due`, then its separator) and its time's key when written.
    static func writeDue(of task: BoardTask, output: Bool, level: Int, into writer: inout JSONWriter) {
        if let due = task.due { writer.string(due.description) } else { writer.raw("null") }
        writer.raw(",\n")
        if let dueTime = dueTimeKey(of: task, output: output, level: level) {
            writeKeys([("dueTime", dueTime)], level: level, into: &writer)
        }
    }

    /// Keys of a task at `level`, each followed by a comma and a new line.
    static func writeKeys(_ keys: [(String, (inout JSONWriter) -> Void)], level: Int, into writer: inout JSONWriter) {
        for (name, write) in keys {
            writer.indent(level + 1)
            writer.string(name)
            writer.raw(": ")
            write(&writer)
            writer.raw(",\n")
        }
    }

    /// One item a line, its keys sorted.
    private static func writeItems(_ items: [ChecklistItem], output: Bool, level: Int, into writer: inout JSONWriter) {
        writeLines(items.count, level: level, into: &writer) { writer, index in
            let item = items[index]
            writer.raw(item.done ? "{\"done\": true, \"id\": " : "{\"done\": false, \"id\": ")
            writer.string(item.id)
            if !output && !item.position.isEmpty {
                writer.raw(", \"position\": ")
                writer.string(item.position)
            }
            if !output && item.removed { writer.raw(", \"removed\": true") }
            if let text = item.text {
                writer.raw(", \"text\": ")
                writer.string(text)
            }
            writer.raw("}")
        }
    }

    /// One comment a line, its keys sorted.
    private static func writeComments(_ comments: [Comment], level: Int, into writer: inout JSONWriter) {
        writeLines(comments.count, level: level, into: &writer) { writer, index in
            let comment = comments[index]
            writer.raw("{\"at\": ")
            writer.string(comment.at)
            writer.raw(", \"by\": ")
            writer.string(comment.by)
            if let edited = comment.edited {
                writer.raw(", \"edited\": ")
                writer.string(edited)
            }
            writer.raw(", \"id\": ")
            writer.string(comment.id)
            writer.raw(", \"text\": ")
            if let text = comment.text { writer.string(text) } else { writer.raw("null") }
            writer.raw("}")
        }
    }

    /// `[` elements one a line `]`, in a task at `level`.
    private static func writeLines(
        _ count: Int, level: Int, into writer: inout JSONWriter, element: (inout JSONWriter, Int) -> Void
    ) {
        guard count > 0 else {
            writer.raw("[]")
            return
        }
        writer.raw("[\n")
        for index in 0..<count {
            writer.indent(level + 2)
            element(&writer, index)
            writer.raw(index == count - 1 ? "\n" : ",\n")
        }
        writer.indent(level + 1)
        writer.raw("]")
    }
}
