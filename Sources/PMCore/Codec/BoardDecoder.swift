import PMICU

/// Reads pm's board format from bytes, refusing anything it cannot read
/// exactly (RELIABILITY.md): never guesses, never treats damage as empty.
public enum BoardDecoder {
    /// Decodes a whole board file.
    /// - Parameter path: named in errors.
    /// - Throws: ``PMError/boardCorrupt(path:line:column:reason:)``.
    /// - Parameter lazyHeads: leaves each task's heads and live changes (what
    ///   only a change needs) as their checked JSON text, decoded when first
    ///   read: a command that only shows the board never pays for them.
    public static func decode(_ bytes: [UInt8], path: String, lazyHeads: Bool = false) throws -> Board {
        guard !bytes.isEmpty else { throw PMError.boardCorrupt(path: path, line: nil, column: nil, reason: .empty) }
        if let offset = UTF8Validation.firstInvalidOffset(in: bytes) {
            let (line, column) = position(of: offset, in: bytes)
            throw PMError.boardCorrupt(path: path, line: line, column: column, reason: .invalidUTF8(byteOffset: offset))
        }
        do {
            var historyRange: Range<Int>?
            var spans: [Range<Int>] = []
            var tasksStart = 0
            var board = try bytes.withUnsafeBufferPointer { buffer in
                var reader = JSONReader(buffer)
                let board = try readBoard(
                    &reader, historyRange: &historyRange, spans: &spans, tasksStart: &tasksStart, lazy: lazyHeads ? bytes : nil)
                reader.skipWhitespace()
                guard reader.atEnd else { throw reader.failure() }
                return board
            }
            if let historyRange { board.history = HistoryLog(storedJSON: bytes[historyRange]) }
            board.source = TaskSource(bytes: bytes, tasks: board.tasks, spans: spans, tasksStart: tasksStart)
            return board
        } catch let failure as JSONReader.Failure {
            throw describe(failure, in: bytes, path: path)
        }
    }

    /// Reads a whole per-user state file with `read`, exactly: valid UTF-8,
    /// nothing after the value, no key twice.
    /// - Throws: ``PMError/stateCorrupt(path:line:column:reason:file:)`` with where and why.
    static func decodeStateFile<Value>(
        _ bytes: [UInt8], path: String, file: SavedFile, _ read: (inout JSONReader) throws -> Value
    ) throws -> Value {
        if let offset = UTF8Validation.firstInvalidOffset(in: bytes) {
            let (line, column) = position(of: offset, in: bytes)
            throw PMError.stateCorrupt(
                path: path, line: line, column: column, reason: .invalidUTF8(byteOffset: offset), file: file)
        }
        do {
            return try bytes.withUnsafeBufferPointer { buffer in
                var reader = JSONReader(buffer)
                let value = try read(&reader)
                reader.skipWhitespace()
                guard reader.atEnd else { throw reader.failure() }
                return value
            }
        } catch let failure as JSONReader.Failure {
            let (line, column) = position(of: failure.offset, in: bytes)
            let reason = bytes.isEmpty ? CorruptionReason.empty : failure.reason
            throw PMError.stateCorrupt(path: path, line: line, column: column, reason: reason, file: file)
        }
    }

    /// The `schemaVersion` of a board file, reading only as far as that key
    /// (sorted keys put it before the tasks); nil when it cannot be found so
    /// cheaply (the caller then decodes the whole file).
    static func schemaVersion(of bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            var reader = JSONReader(buffer)
            guard (try? reader.beginObject()) != nil else { return nil }
            var first = true
            while let key = try? reader.nextKey(first: &first) {
                if key == "schemaVersion" { return try? reader.readInt(field: key) }
                if key == "tasks" || key == "history" { return nil }
                guard (try? reader.skipValueFast()) != nil else { return nil }
            }
            return nil
        }
    }

    static func describe(_ failure: JSONReader.Failure, in bytes: [UInt8], path: String) -> PMError {
        if let markerLine = conflictMarkerLine(in: bytes) {
            return .boardCorrupt(path: path, line: markerLine, column: 1, reason: .conflictMarkers)
        }
        let (line, column) = position(of: failure.offset, in: bytes)
        return .boardCorrupt(path: path, line: line, column: column, reason: failure.reason)
    }

    /// 1-based line and column (in characters) of a byte offset.
    static func position(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        var line = 1
        var lineStart = 0
        let end = min(offset, bytes.count)
        for k in 0..<end where bytes[k] == 0x0A {
            line += 1
            lineStart = k + 1
        }
        let column = 1 + bytes[lineStart..<end].filter { $0 & 0xC0 != 0x80 }.count
        return (line, column)
    }

    private static func conflictMarkerLine(in bytes: [UInt8]) -> Int? {
        let markers: [[UInt8]] = [Array("<<<<<<<".utf8), Array("=======".utf8), Array(">>>>>>>".utf8)]
        var line = 1
        var lineStart = 0
        for k in 0...bytes.count {
            if k == bytes.count || bytes[k] == 0x0A {
                let content = bytes[lineStart..<k]
                if markers.contains(where: { content.starts(with: $0) }) { return line }
                line += 1
                lineStart = k + 1
            }
        }
        return nil
    }

    // MARK: Board

    private static func readBoard(
        _ reader: inout JSONReader, historyRange: inout Range<Int>?, spans: inout [Range<Int>], tasksStart: inout Int,
        lazy: [UInt8]?
    ) throws -> Board {
        var schemaVersion: Int?
        var id: TaskID?
        var revision = 0
        var log = LogPosition()
        var tasks: [BoardTask]?
        var unknown: [String: JSONValue] = [:]
        try reader.readObject { key, reader in
            switch key {
            case "schemaVersion":
                schemaVersion = try reader.readInt(field: key)
            case "id":
                id = try readID(&reader, field: key)
            case "revision":
                revision = try reader.readInt(field: key)
            case "log":
                log = try readLogPosition(&reader)
            case "tasks":
                _ = try reader.peek()
                tasksStart = reader.index
                tasks = try readTasks(&reader, spans: &spans, lazy: lazy)
            case "history":
                _ = try reader.peek()
                let start = reader.index
                guard try reader.peek() == UInt8(ascii: "[") else { throw JSONReader.Failure(offset: start, reason: .field(key)) }
                try reader.skipValueFast()
                historyRange = start..<reader.index
            default:
                unknown[key] = try reader.readValue()
            }
        }
        let end = reader.index
        guard let schemaVersion else { throw JSONReader.Failure(offset: end, reason: .field("schemaVersion")) }
        guard let id else { throw JSONReader.Failure(offset: end, reason: .field("id")) }
        guard let tasks else { throw JSONReader.Failure(offset: end, reason: .field("tasks")) }
        var board = Board(
            schemaVersion: schemaVersion, id: id, revision: revision, tasks: tasks, history: HistoryLog(), unknownFields: unknown)
        board.log = log
        return board
    }

    /// The board a file's first `header.count` bytes describe, up to where
    /// its tasks begin (``BoardIndex``): the keys before `tasks`, which
    /// sorted keys put first. Nil when they are not exactly pm's own: a
    /// schema-2 board's id, log and schema, nothing else.
    static func decodeHeader(_ header: [UInt8]) -> Board? {
        header.withUnsafeBufferPointer { buffer -> Board? in
            var reader = JSONReader(buffer)
            var id: TaskID?
            var log: LogPosition?
            var schema: Int?
            guard (try? reader.beginObject()) != nil else { return nil }
            var first = true
            while let key = try? reader.nextKey(first: &first) {
                switch key {
                case "id": id = try? readID(&reader, field: key)
                case "log": log = try? readLogPosition(&reader)
                case "schemaVersion": schema = try? reader.readInt(field: key)
                case "tasks":
                    reader.skipWhitespace()
                    guard reader.atEnd, let id, let log, schema == Board.currentSchemaVersion else { return nil }
                    var board = Board(id: id)
                    board.log = log
                    return board
                default: return nil
                }
            }
            return nil
        }
    }

    /// `{"clock": [ms, n], "events": N, "last": "<id>", "length": bytes}`: counts that fit, nothing negative.
    private static func readLogPosition(_ reader: inout JSONReader) throws -> LogPosition {
        var position = LogPosition()
        var views: [String: SavedView] = [:]
        try reader.readObject { key, reader in
            let start = reader.index
            switch key {
            case "views":
                guard let read = Self.views(try reader.readValue()) else {
                    throw JSONReader.Failure(offset: start, reason: .field("log"))
                }
                views = read
            case "events", "length":
                let value = try reader.readInt(field: "log")
                guard value >= 0 else { throw JSONReader.Failure(offset: start, reason: .field("log")) }
                if key == "events" { position.events = value } else { position.length = value }
            case "last": position.last = try readID(&reader, field: "log")
            case "replica": position.replica = try readID(&reader, field: "log")
            case "clock":
                guard case .array(let parts) = try reader.readValue(), parts.count == 2, case .number(let ms) = parts[0],
                    case .number(let n) = parts[1], let millis = Int64(ms), let counter = Int64(n), millis >= 0, counter >= 0
                else { throw JSONReader.Failure(offset: start, reason: .field("log")) }
                position.clock = HybridClock(milliseconds: millis, counter: counter)
            case "replicas": position.replicas = ledger(try reader.readValue())
            default: _ = try reader.readValue()
            }
        }
        position.replicas?.views = views
        return position
    }

    /// The saved views a board file keeps, checked as their events are.
    static func views(_ value: JSONValue) -> [String: SavedView]? {
        guard case .object(let members) = value, members.count <= SavedView.boardLimit else { return nil }
        var views: [String: SavedView] = [:]
        for (name, item) in members {
            guard Assignees.isValid(name), case .object(let fields) = item, fields.count == 3,
                case .string(let by)? = fields["by"], case .string(let at)? = fields["at"],
                case .object(let filter)? = fields["filter"], let read = ViewFilter(filter)
            else { return nil }
            views[name] = SavedView(name: name, filter: read, by: by, at: at)
        }
        return views
    }

    /// The ledger a board file keeps; nil when it is not in pm's form (it is
    /// then made again from the log, never trusted half).
    static func ledger(_ value: JSONValue) -> ReplicaLedger? {
        guard case .object(let members) = value else { return nil }
        var entries: [TaskID: ReplicaLedger.Entry] = [:]
        for (key, item) in members {
            guard let id = TaskID(key), case .object(let fields) = item else { return nil }
            var entry = ReplicaLedger.Entry()
            for (name, field) in fields {
                switch (name, field) {
                case ("aside", .bool(let flag)): entry.setAside = flag
                case ("by", .string(let person)): entry.person = person
                default: return nil
                }
            }
            entries[id] = entry
        }
        return ReplicaLedger(entries: entries)
    }

    private static func readTasks(_ reader: inout JSONReader, spans: inout [Range<Int>], lazy: [UInt8]?) throws -> [BoardTask] {
        var tasks: [BoardTask] = []
        // Room for as many tasks as the bytes left could hold (a task pm
        // writes takes 300 bytes or more): growing the array copied it
        // over and over, and room never written is never touched.
        let room = (reader.bytes.count - reader.index) / 256
        tasks.reserveCapacity(room)
        spans.reserveCapacity(room)
        try reader.beginArray()
        var first = true
        while try reader.nextElement(first: &first) {
            _ = try reader.peek()
            let start = reader.index
            let task = try readTask(&reader, lazy: lazy)
            tasks.append(task)
            spans.append(start..<reader.index)
        }
        if let again = firstRepeated(tasks.map(\.id)) {
            throw JSONReader.Failure(offset: spans[again].lowerBound, reason: .duplicateID(tasks[again].id))
        }
        return tasks
    }

    /// The first place whose id an earlier place has too, or nil.
    static func firstRepeated(_ ids: [TaskID]) -> Int? {
        var seen = IDTable(ids)
        return ids.indices.first { !seen.insert($0) }
    }

}
