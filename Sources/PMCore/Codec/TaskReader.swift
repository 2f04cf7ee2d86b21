/// One task of a board file, read in full: every key in any order, every
/// spelling JSON allows, and each field checked (``BoardDecoder``). The
/// layout pm writes takes the shortcut in ``BoardDecoder/readUsualTask(_:lazy:)``
/// first.
extension BoardDecoder {
    /// A task's keys, in the order ``readTask(_:)`` numbers them.
    fileprivate static let taskKeys = KnownKeys([
        "id", "title", "body", "state", "due", "createdAt", "updatedAt", "conflicts", "restored", "heads", "live",
        "assignees", "labels", "priority", "checklist", "comments", "recur", "dueTime",
    ])

    /// - Parameter lazy: the bytes the reader reads, to keep the heads and
    ///   live changes in as text (checked JSON) until first read.
    static func readTask(_ reader: inout JSONReader, lazy: [UInt8]? = nil) throws -> BoardTask {
        if let lazy, let task = readUsualTask(&reader, lazy: lazy) { return task }
        var id: TaskID?
        var title: String?
        var body = ""
        var state: TaskState?
        var due: CivilDate?
        var createdAt: String?
        var updatedAt: String?
        var unknown: [String: JSONValue] = [:]
        var conflicts: [String: [JSONValue]] = [:]
        var restored = false
        var headsStart: JSONReader?
        var live: [TaskID]?
        var liveRange: Range<Int>?
        var bodyAt: Int?
        var assignees: [String] = []
        var card = CardRead()
        let start = reader.index
        try reader.readObject(known: taskKeys) { known, key, reader in
            switch known {
            case 0: id = try readID(&reader, field: key)
            case 1: title = try readString(&reader, field: key)
            case 2 where lazy != nil: bodyAt = try skipBody(&reader, field: key)
            case 2: body = try readString(&reader, field: key)
            case 3: state = try readState(&reader, field: key)
            case 4: due = try readDue(&reader, field: key)
            case 5: createdAt = try readString(&reader, field: key)
            case 6: updatedAt = try readString(&reader, field: key)
            case 7: try readConflicts(&reader, field: key, into: &conflicts)
            case 8: restored = try readFlag(&reader, field: key)
            // Read once every field is known: a bare id holds the shown value.
            case 9: headsStart = try markHeads(&reader, field: key, lazy: lazy != nil)
            case 10 where lazy != nil: liveRange = try skipLive(&reader, field: key)
            case 10: live = try readIDs(&reader, field: key)
            case 11: assignees = try readAssignees(&reader, field: key)
            case let number? where number >= 12: try card.read(number, &reader, field: key)
            default: unknown[key] = try reader.readValue()
            }
        }
        guard let id else { throw JSONReader.Failure(offset: start, reason: .field("id")) }
        guard let title else { throw JSONReader.Failure(offset: start, reason: .field("title")) }
        guard let state else { throw JSONReader.Failure(offset: start, reason: .field("state")) }
        guard let createdAt else { throw JSONReader.Failure(offset: start, reason: .field("createdAt")) }
        // Made whole, not set field by field: each set is a copy-on-write check.
        var task = BoardTask(
            id: id,
            fields: BoardTask.Fields(
                title: title, body: body, state: state, due: due, createdAt: createdAt, updatedAt: updatedAt ?? createdAt,
                unknownFields: unknown, conflicts: conflicts, restored: restored, assignees: assignees,
                labels: card.labels, priority: card.priority, checklist: card.checklist, comments: card.comments,
                recur: card.recur, dueTime: card.dueTime))
        if let lazy, let bodyAt { task.decodeBodyLater(LazyText(bytes: lazy, at: bodyAt)) }
        try attachHeads(to: &task, lazy: lazy, headsStart: headsStart, live: live, liveRange: liveRange)
        return task
    }

    // MARK: One key each (readTask's cases)

    /// The body's place, its string checked but not made (a lazy read makes it only if read).
    @inline(__always)
    private static func skipBody(_ reader: inout JSONReader, field: String) throws -> Int {
        _ = try reader.peek()
        guard reader.bytes[reader.index] == UInt8(ascii: "\"") else {
            throw JSONReader.Failure(offset: reader.index, reason: .field(field))
        }
        let bodyAt = reader.index
        _ = try reader.skipString()
        return bodyAt
    }

    /// The deadline, or nil for `null`.
    @inline(__always)
    private static func readDue(_ reader: inout JSONReader, field: String) throws -> CivilDate? {
        guard try !reader.readNullIfPresent() else { return nil }
        let valueStart = reader.index
        // The usual form, read where it lies: ten plain bytes between quotes.
        if valueStart + 12 <= reader.bytes.count, reader.bytes[valueStart] == UInt8(ascii: "\""),
            reader.bytes[valueStart + 11] == UInt8(ascii: "\""),
            let date = CivilDate(isoUTF8: UnsafeBufferPointer(rebasing: reader.bytes[(valueStart + 1)..<(valueStart + 11)]))
        {
            reader.index = valueStart + 12
            return date
        }
        guard let date = CivilDate(iso: try readString(&reader, field: field)) else {
            throw JSONReader.Failure(offset: valueStart, reason: .field(field))
        }
        return date
    }

    /// The values in conflict by field name, into `conflicts`; fields with none left out.
    @inline(__always)
    private static func readConflicts(
        _ reader: inout JSONReader, field: String, into conflicts: inout [String: [JSONValue]]
    ) throws {
        let valueStart = reader.index
        guard case .object(let members) = try reader.readValue() else {
            throw JSONReader.Failure(offset: valueStart, reason: .field(field))
        }
        for (name, value) in members {
            guard case .array(let values) = value else {
                throw JSONReader.Failure(offset: valueStart, reason: .field(field))
            }
            if !values.isEmpty { conflicts[name] = values }
        }
    }

    /// A `true` or `false`.
    @inline(__always)
    private static func readFlag(_ reader: inout JSONReader, field: String) throws -> Bool {
        let valueStart = reader.index
        guard case .bool(let flag) = try reader.readValue() else {
            throw JSONReader.Failure(offset: valueStart, reason: .field(field))
        }
        return flag
    }

    /// The reader at the heads, which it passes over (checked, skipped fast when lazy).
    @inline(__always)
    private static func markHeads(_ reader: inout JSONReader, field: String, lazy: Bool) throws -> JSONReader {
        _ = try reader.peek()
        let headsStart = reader
        if !lazy {
            _ = try reader.readValue()
        } else {
            guard try reader.peek() == UInt8(ascii: "{") else {
                throw JSONReader.Failure(offset: reader.index, reason: .field(field))
            }
            if !reader.skipIDListsFast() { try reader.skipValueFast() }
        }
        return headsStart
    }

    /// Where the live changes lie, checked and passed over.
    @inline(__always)
    private static func skipLive(_ reader: inout JSONReader, field: String) throws -> Range<Int> {
        _ = try reader.peek()
        let valueStart = reader.index
        guard try reader.peek() == UInt8(ascii: "[") else {
            throw JSONReader.Failure(offset: valueStart, reason: .field(field))
        }
        if !reader.skipIDListsFast() { try reader.skipValueFast() }
        return valueStart..<reader.index
    }

    /// Gives `task` its heads and live changes: kept as text to decode when
    /// first read (lazy), read now, or none (an untracked task).
    @inline(__always)
    private static func attachHeads(
        to task: inout BoardTask, lazy: [UInt8]?, headsStart: JSONReader?, live: [TaskID]?, liveRange: Range<Int>?
    ) throws {
        if let lazy, let headsStart, let liveRange {
            task.decodeHeadsLater(LazyHeads(bytes: lazy, headsAt: headsStart.index, liveAt: liveRange.lowerBound))
        } else if var headsReader = headsStart, let live {
            let known = task
            task.heads = try readHeads(&headsReader, field: "heads") { LegacyMigration.contentValue($0, of: known) }
            task.live = live
        } else {
            task.tracked = false
        }
    }

    // MARK: Fields

    static func readString(_ reader: inout JSONReader, field: String) throws -> String {
        let start = reader.index
        guard try reader.peek() == UInt8(ascii: "\"") else { throw JSONReader.Failure(offset: start, reason: .field(field)) }
        return try reader.readString()
    }

    /// A task's assignees: names pm keeps, each once, in the order pm writes them.
    static func readAssignees(_ reader: inout JSONReader, field: String) throws -> [String] {
        let start = reader.index
        guard case .array(let values) = try reader.readValue() else {
            throw JSONReader.Failure(offset: start, reason: .field(field))
        }
        var names: [String] = []
        for value in values {
            guard case .string(let name) = value, Assignees.isValidRemembered(name) else {
                throw JSONReader.Failure(offset: start, reason: .field(field))
            }
            names.append(name)
        }
        guard names == Assignees.sorted(names) else { throw JSONReader.Failure(offset: start, reason: .field(field)) }
        return names
    }

    static func readID(_ reader: inout JSONReader, field: String) throws -> TaskID {
        _ = try reader.peek()
        let start = reader.index
        // The usual form: 36 plain bytes between quotes, read where they lie.
        if start + 38 <= reader.bytes.count, reader.bytes[start] == UInt8(ascii: "\""),
            reader.bytes[start + 37] == UInt8(ascii: "\""),
            let id = TaskID(utf8: UnsafeBufferPointer(rebasing: reader.bytes[(start + 1)..<(start + 37)]))
        {
            reader.index = start + 38
            return id
        }
        guard let id = TaskID(try readString(&reader, field: field)) else {
            throw JSONReader.Failure(offset: start, reason: .field(field))
        }
        return id
    }

    static func readState(_ reader: inout JSONReader, field: String) throws -> TaskState {
        _ = try reader.peek()
        let start = reader.index
        guard let state = TaskState(rawValue: try readString(&reader, field: field)) else {
            throw JSONReader.Failure(offset: start, reason: .field(field))
        }
        return state
    }
}
