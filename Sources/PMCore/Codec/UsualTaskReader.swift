/// A task read in the exact layout pm writes it (``BoardEncoder``): the
/// nine usual keys in order, each at its indentation, read by comparing the
/// bytes between the values instead of finding, matching and checking each
/// key. Any other layout, key or spelling gives way to the full reader
/// (``BoardDecoder/readTask(_:lazy:)``), which then also says what is wrong:
/// this path never refuses anything itself.
extension BoardDecoder {
    /// The task at the reader in pm's own layout, its body, heads and live
    /// changes left as text in `lazy`; nil, the reader unmoved, otherwise.
    static func readUsualTask(_ reader: inout JSONReader, lazy: [UInt8]) -> BoardTask? {
        let start = reader.index
        guard let task = try? readUsualFields(&reader, lazy: lazy) else {
            reader.index = start
            return nil
        }
        return task
    }

    private struct GiveWay: Error {}

    private static func readUsualFields(_ reader: inout JSONReader, lazy: [UInt8]) throws -> BoardTask {
        try literal(&reader, "{\n      \"")
        // Assignees, when there are some, come first (sorted keys).
        var assignees: [String] = []
        if consume(&reader, "assignees\": ") {
            assignees = try readAssignees(&reader, field: "assignees")
            try literal(&reader, ",\n      \"")
        }
        try literal(&reader, "body\": ")
        let bodyAt = try skippedString(&reader)
        let checklistAt = consume(&reader, ",\n      \"checklist\": ") ? try skippedList(&reader) : nil
        let commentsAt = consume(&reader, ",\n      \"comments\": ") ? try skippedList(&reader) : nil
        try literal(&reader, ",\n      \"createdAt\": ")
        let createdAt = try plainString(&reader)
        try literal(&reader, ",\n      \"due\": ")
        let due = try usualDue(&reader)
        try literal(&reader, ",\n      \"heads\": ")
        let headsAt = try idLists(&reader, opening: "{")
        try literal(&reader, ",\n      \"id\": ")
        let id = try readID(&reader, field: "id")
        let labels = consume(&reader, ",\n      \"labels\": ") ? try readAssignees(&reader, field: "labels") : []
        try literal(&reader, ",\n      \"live\": ")
        let liveAt = try idLists(&reader, opening: "[")
        let priority = try usualPriority(&reader)
        try literal(&reader, ",\n      \"state\": ")
        let state: TaskState
        if consume(&reader, "\"todo\"") {
            state = .todo
        } else if consume(&reader, "\"doing\"") {
            state = .doing
        } else if consume(&reader, "\"done\"") {
            state = .done
        } else {
            throw GiveWay()
        }
        try literal(&reader, ",\n      \"title\": ")
        let title = try plainString(&reader)
        try literal(&reader, ",\n      \"updatedAt\": ")
        // Checked here (a string, no control characters, escapes well
        // formed), made into a String only if read: a list never shows it.
        let updatedAt = try skippedString(&reader)
        try literal(&reader, "\n    }")
        let task = BoardTask(
            id: id,
            fields: BoardTask.Fields(
                title: title, body: "", state: state, due: due, createdAt: createdAt, updatedAt: "",
                unknownFields: [:], conflicts: [:], restored: false, assignees: assignees, labels: labels,
                priority: priority))
        task.decodeBodyLater(LazyText(bytes: lazy, at: bodyAt))
        if checklistAt != nil || commentsAt != nil {
            task.decodePartsLater(LazyParts(bytes: lazy, checklistAt: checklistAt, commentsAt: commentsAt))
        }
        task.decodeUpdatedAtLater(LazyText(bytes: lazy, at: updatedAt))
        task.decodeHeadsLater(LazyHeads(bytes: lazy, headsAt: headsAt, liveAt: liveAt))
        return task
    }

    /// The deadline: `null`, or ten plain bytes between quotes.
    private static func usualDue(_ reader: inout JSONReader) throws -> CivilDate? {
        if consume(&reader, "null") { return nil }
        let at = reader.index
        guard at + 12 <= reader.bytes.count, reader.bytes[at] == UInt8(ascii: "\""),
            reader.bytes[at + 11] == UInt8(ascii: "\""),
            let date = CivilDate(isoUTF8: UnsafeBufferPointer(rebasing: reader.bytes[(at + 1)..<(at + 11)]))
        else { throw GiveWay() }
        reader.index = at + 12
        return date
    }

    /// The priority, when the task has one (`,\n      "priority": "high"`).
    private static func usualPriority(_ reader: inout JSONReader) throws -> Priority? {
        guard consume(&reader, ",\n      \"priority\": \"") else { return nil }
        guard let end = reader.bytes[reader.index...].prefix(8).firstIndex(of: UInt8(ascii: "\"")),
            let read = Priority(rawValue: String(decoding: reader.bytes[reader.index..<end], as: UTF8.self))
        else { throw GiveWay() }
        reader.index = end + 1
        return read
    }

    /// Skips heads (`{`) or live changes (`[`) in pm's own form; where they start.
    private static func idLists(_ reader: inout JSONReader, opening: Unicode.Scalar) throws -> Int {
        let start = reader.index
        guard start < reader.bytes.count, reader.bytes[start] == UInt8(ascii: opening), reader.skipIDListsFast() else {
            throw GiveWay()
        }
        return start
    }

    /// Where a list (a checklist, comments) starts, skipped and checked as JSON but not made.
    private static func skippedList(_ reader: inout JSONReader) throws -> Int {
        let start = reader.index
        guard start < reader.bytes.count, reader.bytes[start] == UInt8(ascii: "[") else { throw GiveWay() }
        try reader.skipValueFast()
        return start
    }

    /// Where a string value starts, skipped and checked but not made.
    private static func skippedString(_ reader: inout JSONReader) throws -> Int {
        let start = reader.index
        guard start < reader.bytes.count, reader.bytes[start] == UInt8(ascii: "\"") else { throw GiveWay() }
        _ = try reader.skipString()
        return start
    }

    /// A string value (escapes allowed, as the full reader reads them).
    private static func plainString(_ reader: inout JSONReader) throws -> String {
        guard reader.index < reader.bytes.count, reader.bytes[reader.index] == UInt8(ascii: "\"") else { throw GiveWay() }
        return try reader.readString()
    }

    /// Consumes exactly `text`, or gives way.
    private static func literal(_ reader: inout JSONReader, _ text: StaticString) throws {
        guard consume(&reader, text) else { throw GiveWay() }
    }

    /// Consumes `text` when the reader is at exactly those bytes.
    private static func consume(_ reader: inout JSONReader, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard reader.index + count <= reader.bytes.count, let base = reader.bytes.baseAddress else { return false }
        // Eight bytes at a time, the last eight overlapping.
        let here = UnsafeRawPointer(base + reader.index)
        let expected = UnsafeRawPointer(text.utf8Start)
        if count >= 8 {
            var offset = 0
            while true {
                let at = min(offset, count - 8)
                guard
                    here.loadUnaligned(fromByteOffset: at, as: UInt64.self)
                        == expected.loadUnaligned(fromByteOffset: at, as: UInt64.self)
                else { return false }
                if at == count - 8 { break }
                offset += 8
            }
        } else {
            for offset in 0..<count
            where here.load(fromByteOffset: offset, as: UInt8.self) != expected.load(fromByteOffset: offset, as: UInt8.self) {
                return false
            }
        }
        reader.index += count
        return true
    }
}
