import PMICU

/// The `history` array a schema-1 board (pm 0.1) kept inside `board.json`:
/// read lazily, element by element, for `pm history` and the conversion to
/// the event log.
extension BoardDecoder {
    /// Where each element of the stored `history` array starts, after checking the array's syntax.
    static func historyElementStarts(_ bytes: ArraySlice<UInt8>) throws -> [Int] {
        do {
            return try bytes.withUnsafeBufferPointer { buffer in
                var reader = JSONReader(buffer)
                var starts: [Int] = []
                try reader.beginArray()
                var first = true
                while try reader.nextElement(first: &first) {
                    reader.skipWhitespace()
                    starts.append(reader.index)
                    try reader.skipValueFast()
                }
                return starts
            }
        } catch let failure as JSONReader.Failure {
            throw describe(failure, in: Array(bytes), path: "history")
        }
    }

    /// Decodes only the last `count` events of the stored `history` array, oldest first.
    static func decodeHistory(_ bytes: ArraySlice<UInt8>, last count: Int) throws -> [HistoryEvent] {
        let starts = try historyElementStarts(bytes)
        do {
            return try bytes.withUnsafeBufferPointer { buffer in
                try starts.suffix(count).map { start in
                    var reader = JSONReader(buffer, at: start)
                    return try readEvent(&reader)
                }
            }
        } catch let failure as JSONReader.Failure {
            throw describe(failure, in: Array(bytes), path: "history")
        }
    }

    /// The newest stored event that `matches`, decoding from the end.
    static func lastHistoryEvent(_ bytes: ArraySlice<UInt8>, where matches: (HistoryEvent) -> Bool) throws -> HistoryEvent? {
        let starts = try historyElementStarts(bytes)
        do {
            return try bytes.withUnsafeBufferPointer { buffer in
                for start in starts.reversed() {
                    var reader = JSONReader(buffer, at: start)
                    let event = try readEvent(&reader)
                    if matches(event) { return event }
                }
                return nil
            }
        } catch let failure as JSONReader.Failure {
            throw describe(failure, in: Array(bytes), path: "history")
        }
    }

    /// Decodes the whole stored `history` array, oldest first.
    static func decodeHistory(_ bytes: ArraySlice<UInt8>) throws -> [HistoryEvent] {
        try decodeHistory(bytes, last: .max)
    }

    static func readEvent(_ reader: inout JSONReader) throws -> HistoryEvent {
        var id: TaskID?
        var at: String?
        var by = ""
        var action: HistoryAction?
        var taskID: TaskID?
        var title = ""
        var from: TaskState?
        var to: TaskState?
        var changes: [FieldChange] = []
        let start = reader.index
        try reader.readObject { key, reader in
            switch key {
            case "id": id = try readID(&reader, field: key)
            case "at": at = try readString(&reader, field: key)
            case "by": by = try readString(&reader, field: key)
            case "action":
                let valueStart = reader.index
                // A board file's history (pm 0.1) is of tasks only.
                guard let value = HistoryAction(rawValue: try readString(&reader, field: key)), value != .view else {
                    throw JSONReader.Failure(offset: valueStart, reason: .field(key))
                }
                action = value
            case "task": taskID = try readID(&reader, field: key)
            case "title": title = try readString(&reader, field: key)
            case "from": from = try reader.readNullIfPresent() ? nil : try readState(&reader, field: key)
            case "to": to = try reader.readNullIfPresent() ? nil : try readState(&reader, field: key)
            case "changes":
                try reader.beginArray()
                var firstChange = true
                while try reader.nextElement(first: &firstChange) {
                    guard case .object(let object) = try reader.readValue(),
                        case .string(let field) = object["field"]
                    else { throw JSONReader.Failure(offset: reader.index, reason: .field(key)) }
                    changes.append(FieldChange(field: field, from: object["from"] ?? .null, to: object["to"] ?? .null))
                }
            default: _ = try reader.readValue()
            }
        }
        guard let id, let at, let action, let taskID else { throw JSONReader.Failure(offset: start, reason: .field("history")) }
        return HistoryEvent(
            id: id, at: at, by: by, action: action, taskID: taskID, title: title, from: from, to: to, changes: changes)
    }
}
