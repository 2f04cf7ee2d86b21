import PMICU

/// Writes pm's board format: UTF-8, pretty-printed with two-space indents,
/// keys sorted, tasks in their stable order, so a change to one task is a
/// small diff that git can merge.
public enum BoardEncoder {
    /// The file's bytes.
    public static func encode(_ board: Board) -> [UInt8] {
        Array(encodeChunks(board).joined())
    }

    /// The file's bytes in pieces to write one after the other; the stored
    /// history is one of them, shared with the bytes it was read from rather
    /// than copied (a large board's history is most of its size).
    public static func encodeChunks(_ board: Board) -> [ArraySlice<UInt8>] {
        encodeChunks(board, unreadable: nil)
    }

    /// The file's bytes, each task written afresh (not copied from the file
    /// it was read from, which was read back already) decoded again and
    /// compared: nil when one would not read back as itself, so that pm
    /// never writes a board it would refuse.
    public static func encodeCheckedChunks(_ board: Board) -> [ArraySlice<UInt8>]? {
        encodeChecked(board).map { JSONWriter.chunks(of: $0.pieces) }
    }

    /// As ``encodeCheckedChunks(_:)``, with where the tasks array and each
    /// task lie in the bytes (what an index of the file records).
    /// - Parameter copyUnread: tasks read through the index and unchanged
    ///   since are pieces to copy from their file (``CopiedTasks``).
    static func encodeChecked(_ board: Board, copyUnread: Bool = false) -> (
        pieces: [JSONWriter.Piece], layout: JSONWriter.Layout
    )? {
        let unreadable = UnreadableFlag()
        var layout = JSONWriter.Layout()
        let pieces = encodePieces(board, unreadable: unreadable, layout: &layout, copyUnread: copyUnread)
        return unreadable.found ? nil : (pieces, layout)
    }

    final class UnreadableFlag {
        var found = false
    }

    static func encodeChunks(_ board: Board, unreadable: UnreadableFlag?) -> [ArraySlice<UInt8>] {
        var layout = JSONWriter.Layout()
        return JSONWriter.chunks(of: encodePieces(board, unreadable: unreadable, layout: &layout, copyUnread: false))
    }

    static func encodePieces(
        _ board: Board, unreadable: UnreadableFlag?, layout: inout JSONWriter.Layout, copyUnread: Bool
    ) -> [JSONWriter.Piece] {
        var writer = JSONWriter()
        defer { layout = writer.layout }
        // Room for the whole file at once: growing by doubling would hold
        // the old and the new buffer together (a 5 MB board peaked at 12 MB).
        // Tasks copied from their file take no room here.
        let read = board.source.bytes.count
        writer.bytes.reserveCapacity(copyUnread ? 1 << 16 : max(read + read / 32, board.tasks.count * 400) + 4096)
        var fields: [(String, (inout JSONWriter) -> Void)] = [
            ("id", { $0.string(board.id.rawValue) }),
            ("schemaVersion", { $0.raw(String(board.schemaVersion)) }),
            (
                "tasks",
                { writeTasks(board.tasks, source: board.source, into: &$0, unreadable: unreadable, copyUnread: copyUnread) }
            ),
        ]
        if board.schemaVersion >= 2 {
            fields.append(("log", { writeLogPosition(board.log, into: &$0) }))
        } else {
            fields.append(("history", { writeHistory(board.history, into: &$0) }))
            fields.append(("revision", { $0.raw(String(board.revision)) }))
        }
        for (key, value) in board.unknownFields
        where !["history", "id", "log", "revision", "schemaVersion", "tasks"].contains(key) {
            fields.append((key, { $0.value(value, level: 1) }))
        }
        writer.object(fields.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }, level: 0)
        writer.raw("\n")
        return writer.finishedPieces()
    }

    static func writeLogPosition(_ position: LogPosition, into writer: inout JSONWriter) {
        var members: [(String, (inout JSONWriter) -> Void)] = [
            ("events", { $0.raw(String(position.events)) }),
            ("length", { $0.raw(String(position.length)) }),
        ]
        if let clock = position.clock {
            members.insert(("clock", { $0.raw("[\(clock.milliseconds), \(clock.counter)]") }), at: 0)
        }
        if let last = position.last { members.append(("last", { $0.string(last.rawValue) })) }
        if let replica = position.replica { members.append(("replica", { $0.string(replica.rawValue) })) }
        if let ledger = position.replicas { members.append(("replicas", { writeLedger(ledger, into: &$0) })) }
        if let views = position.replicas?.views, !views.isEmpty {
            let value = JSONValue.object(
                views.mapValues { view in
                    .object(["by": .string(view.by), "at": .string(view.at), "filter": view.filter.value])
                })
            members.append(("views", { $0.value(value, level: 2) }))
        }
        writer.object(members, level: 1)
    }

    /// `{"<replica>": {"by": "alice"}, "<replica>": {"aside": true}, …}`, by id.
    static func writeLedger(_ ledger: ReplicaLedger, into writer: inout JSONWriter) {
        let members = ledger.entries.sorted { $0.key < $1.key }.map { id, entry -> (String, (inout JSONWriter) -> Void) in
            (
                id.rawValue,
                { writer in
                    // One line each: a board of many copies stays short to read.
                    writer.raw(entry.setAside ? "{\"aside\": true" : "{")
                    if let person = entry.person {
                        writer.raw(entry.setAside ? ", \"by\": " : "\"by\": ")
                        writer.string(person)
                    }
                    writer.raw("}")
                }
            )
        }
        writer.object(members, level: 2)
    }

    /// One task. `heads` adds what only the board file keeps (the heads and
    /// live changes the fold needs), not `--json` nor the undo state.
    static func writeTask(_ task: BoardTask, overdue: Bool?, into writer: inout JSONWriter, level: Int, heads: Bool = false) {
        let heads = heads && task.tracked
        // Scripts always find the assignees in `--json`; a board file names them when there are some.
        let assignees = overdue != nil || !task.assignees.isEmpty
        let card = cardKeys(of: task, output: overdue != nil, level: level)
        if task.unknownFields.isEmpty, task.conflicts.isEmpty, !task.restored {
            writeKnownTask(task, overdue: overdue, into: &writer, level: level, heads: heads, assignees: assignees, card: card)
            return
        }
        var fields: [(String, (inout JSONWriter) -> Void)] = [
            ("assignees", { writeNames(task.assignees, into: &$0) }),
            ("body", { $0.string(task.body) }),
            ("createdAt", { $0.string(task.createdAt) }),
            ("due", { w in if let due = task.due { w.string(due.description) } else { w.raw("null") } }),
            ("id", { $0.string(task.id.rawValue) }),
            ("state", { $0.string(task.state.rawValue) }),
            ("title", { $0.string(task.title) }),
            ("updatedAt", { $0.string(task.updatedAt) }),
        ]
        if let overdue {
            fields.insert(("overdue", { $0.raw(overdue ? "true" : "false") }), at: 5)
        }
        if !assignees { fields.removeFirst() }
        fields += card.early
        if let labels = card.labels { fields.append(("labels", labels)) }
        if let priority = card.priority { fields.append(("priority", priority)) }
        if let recur = card.recur { fields.append(("recur", recur)) }
        if let dueTime = dueTimeKey(of: task, output: overdue != nil, level: level) { fields.append(("dueTime", dueTime)) }
        if !task.conflicts.isEmpty {
            let conflicts = JSONValue.object(task.conflicts.mapValues { .array($0) })
            fields.append(("conflicts", { $0.value(conflicts, level: level + 1) }))
        }
        if task.restored { fields.append(("restored", { $0.raw("true") })) }
        if heads {
            fields.append(("heads", { writeHeads(of: task, into: &$0) }))
            fields.append(("live", { writeIDs(task.live, into: &$0) }))
        }
        do {
            let known = Set(fields.map(\.0))
            for (key, value) in task.unknownFields where !known.contains(key) {
                fields.append((key, { $0.value(value, level: level + 1) }))
            }
            fields.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        }
        writer.object(fields, level: level)
    }

    /// The common case, written straight out: no closures, no sorting.
    private static func writeKnownTask(
        _ task: BoardTask, overdue: Bool?, into writer: inout JSONWriter, level: Int, heads: Bool, assignees: Bool,
        card: CardKeys
    ) {
        writer.raw("{\n")
        func key(_ name: StaticString) {
            writer.indent(level + 1)
            writer.bytes.append(UInt8(ascii: "\""))
            writer.bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            writer.bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":"), 0x20])
        }
        let separator: [UInt8] = [UInt8(ascii: ","), 0x0A]
        if assignees {
            key("assignees")
            writeNames(task.assignees, into: &writer)
            writer.bytes.append(contentsOf: separator)
        }
        key("body")
        writer.string(task.body)
        writer.bytes.append(contentsOf: separator)
        writeKeys(card.early, level: level, into: &writer)
        key("createdAt")
        writer.string(task.createdAt)
        writer.bytes.append(contentsOf: separator)
        key("due")
        writeDue(of: task, output: overdue != nil, level: level, into: &writer)
        if heads {
            key("heads")
            writeHeads(of: task, into: &writer)
            writer.bytes.append(contentsOf: separator)
        }
        key("id")
        writer.string(task.id.rawValue)
        writer.bytes.append(contentsOf: separator)
        if let labels = card.labels { writeKeys([("labels", labels)], level: level, into: &writer) }
        if heads {
            key("live")
            writeIDs(task.live, into: &writer)
            writer.bytes.append(contentsOf: separator)
        }
        if let overdue {
            key("overdue")
            writer.raw(overdue ? "true" : "false")
            writer.bytes.append(contentsOf: separator)
        }
        if let priority = card.priority { writeKeys([("priority", priority)], level: level, into: &writer) }
        if let recur = card.recur { writeKeys([("recur", recur)], level: level, into: &writer) }
        key("state")
        writer.string(task.state.rawValue)
        writer.bytes.append(contentsOf: separator)
        key("title")
        writer.string(task.title)
        writer.bytes.append(contentsOf: separator)
        key("updatedAt")
        writer.string(task.updatedAt)
        writer.bytes.append(0x0A)
        writer.indent(level)
        writer.raw("}")
    }

    static func writeHistory(_ history: HistoryLog, into writer: inout JSONWriter) {
        guard !history.appended.isEmpty else {
            writer.appendShared(history.storedJSON)
            return
        }
        // Splice the new events before the stored array's closing bracket.
        var stored = history.storedJSON
        if let close = stored.lastIndex(of: UInt8(ascii: "]")) { stored = stored[..<close] }
        while let last = stored.last, last == 0x20 || last == 0x0A || last == 0x0D || last == 0x09 {
            stored = stored.dropLast()
        }
        if stored.isEmpty { stored = Array("[".utf8)[...] }
        writer.appendShared(stored)
        let isEmpty = stored.last == UInt8(ascii: "[")
        for (offset, event) in history.appended.enumerated() {
            writer.raw(offset == 0 && isEmpty ? "\n" : ",\n")
            writer.indent(2)
            writeEvent(event, into: &writer, level: 2)
        }
        writer.raw("\n")
        writer.indent(1)
        writer.raw("]")
    }

    /// One history event as stored (and as `pm history --json` prints it).
    static func writeEvent(_ event: HistoryEvent, into writer: inout JSONWriter, level: Int) {
        var fields: [(String, (inout JSONWriter) -> Void)] = [
            ("action", { $0.string(event.action.rawValue) }),
            ("at", { $0.string(event.at) }),
            ("by", { $0.string(event.by) }),
        ]
        if !event.changes.isEmpty {
            let changes = JSONValue.array(
                event.changes.map { .object(["field": .string($0.field), "from": $0.from, "to": $0.to]) })
            fields.append(("changes", { $0.value(changes, level: level + 1) }))
        }
        if let copyOf = event.copyOf { fields.append(("copyOf", { $0.string(copyOf) })) }
        if let from = event.from { fields.append(("from", { $0.string(from.rawValue) })) }
        fields.append(("id", { $0.string(event.id.rawValue) }))
        fields.append(("task", { $0.string(event.taskID.rawValue) }))
        fields.append(("title", { $0.string(event.title) }))
        if let to = event.to { fields.append(("to", { $0.string(to.rawValue) })) }
        if let undoes = event.undoes { fields.append(("undoes", { $0.string(undoes.rawValue) })) }
        if let redoes = event.redoes { fields.append(("redoes", { $0.string(redoes.rawValue) })) }
        writer.object(fields.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }, level: level)
    }
}
