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

    /// Names on one line: `["ana", "ji-woo"]`.
    static func writeNames(_ names: [String], into writer: inout JSONWriter) {
        writer.raw("[")
        for (offset, name) in names.enumerated() {
            if offset > 0 { writer.raw(", ") }
            writer.string(name)
        }
        writer.raw("]")
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
        // Read in place, without building the generic JSON value first: every
        // task of a board has heads, and this runs for all of them.
        let start = reader.index
        let malformed = JSONReader.Failure(offset: start, reason: .field(field))
        guard try reader.peek() == UInt8(ascii: "{") else { throw malformed }
        try reader.beginObject()
        var heads: [String: [Head]] = [:]
        var firstKey = true
        while try reader.atNextKey(first: &firstKey) {
            let keyStart = reader.index
            let name = try reader.readString()
            try reader.expect(UInt8(ascii: ":"))
            guard heads[name] == nil else { throw JSONReader.Failure(offset: keyStart, reason: .duplicateKey(name)) }
            guard try reader.peek() == UInt8(ascii: "[") else { throw malformed }
            try reader.beginArray()
            var list: [Head] = []
            var firstElement = true
            while try reader.nextElement(first: &firstElement) {
                switch try reader.peek() {
                case UInt8(ascii: "\""):
                    guard let id = TaskID(try reader.readString()), let value = shown(name) else { throw malformed }
                    list.append(Head(event: id, value: value))
                case UInt8(ascii: "["):
                    try reader.beginArray()
                    var firstPart = true
                    guard try reader.nextElement(first: &firstPart), try reader.peek() == UInt8(ascii: "\""),
                        let id = TaskID(try reader.readString()), try reader.nextElement(first: &firstPart)
                    else { throw malformed }
                    let value = try reader.readValue(depth: 1)
                    guard try !reader.nextElement(first: &firstPart) else { throw malformed }
                    list.append(Head(event: id, value: value))
                default: throw malformed
                }
            }
            heads[name] = list
        }
        return heads
    }
}
