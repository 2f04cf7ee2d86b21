/// How a task's heads and live changes (what the fold needs, DESIGN.md §9)
/// are written in and read from the board file.
extension BoardEncoder {
    /// `{"body": ["id"], "title": ["id", ["id", "other value"]]}` on one
    /// line: a bare id holds exactly the value the task shows.
    static func writeHeads(of task: BoardTask, into writer: inout JSONWriter) {
        writer.raw("{")
        for (offset, name) in task.heads.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
            if offset > 0 { writer.raw(", ") }
            writer.string(name)
            writer.raw(": [")
            let shown = LegacyMigration.contentValue(name, of: task)
            for (index, head) in (task.heads[name] ?? []).enumerated() {
                if index > 0 { writer.raw(", ") }
                if head.value.isIdentical(to: shown) {
                    writer.string(head.event.rawValue)
                } else {
                    writer.raw("[")
                    writer.string(head.event.rawValue)
                    writer.raw(", ")
                    EventCodec.compact(head.value, into: &writer)
                    writer.raw("]")
                }
            }
            writer.raw("]")
        }
        writer.raw("}")
    }

    static func writeIDs(_ ids: [TaskID], into writer: inout JSONWriter) {
        writer.raw("[")
        for (offset, id) in ids.enumerated() {
            if offset > 0 { writer.raw(", ") }
            writer.string(id.rawValue)
        }
        writer.raw("]")
    }
}

extension BoardDecoder {
    /// An array of ids.
    static func readIDs(_ reader: inout JSONReader, field: String) throws -> [TaskID] {
        var ids: [TaskID] = []
        try reader.beginArray()
        var first = true
        while try reader.nextElement(first: &first) { ids.append(try readID(&reader, field: field)) }
        return ids
    }

    /// A task's heads: field → `["id", ["id", value], …]`, a bare id holding
    /// the value the task shows.
    static func readHeads(_ reader: inout JSONReader, field: String, shown: (String) -> JSONValue?) throws -> [String: [Head]] {
        let start = reader.index
        guard case .object(let members) = try reader.readValue() else {
            throw JSONReader.Failure(offset: start, reason: .field(field))
        }
        var heads: [String: [Head]] = [:]
        for (name, value) in members {
            guard case .array(let elements) = value else { throw JSONReader.Failure(offset: start, reason: .field(field)) }
            heads[name] = try elements.map { element in
                switch element {
                case .string(let text):
                    if let id = TaskID(text), let value = shown(name) { return Head(event: id, value: value) }
                case .array(let pair):
                    if pair.count == 2, case .string(let text) = pair[0], let id = TaskID(text) {
                        return Head(event: id, value: pair[1])
                    }
                default: break
                }
                throw JSONReader.Failure(offset: start, reason: .field(field))
            }
        }
        return heads
    }
}
