/// Where a person last looked at what others changed (`pm news`, DESIGN.md
/// §13): how much of the log they had seen, kept per user in the state
/// directory. The log only grows at its end (a change, a sync, a merge all
/// append), so what arrived since is the bytes after the mark: reading it
/// costs what arrived, never the log's length.
public struct NewsMark: Equatable, Sendable {
    /// Events and bytes of the log seen.
    public var events: Int
    public var length: Int

    public init(events: Int, length: Int) {
        self.events = events
        self.length = length
    }

    /// The state file of `user` for the board `boardID`.
    public static func path(stateDirectory: String, boardID: TaskID, user: String) -> String {
        UndoStore.stateFile("news", in: stateDirectory, boardID: boardID, user: user)
    }

    /// The mark saved at `path`; nil when there is none yet.
    /// - Throws: ``PMError/unsafeFile(path:)`` for a symlink or a folder,
    ///   ``PMError/stateCorrupt(path:line:column:reason:file:)`` when it
    ///   cannot be read exactly (never guessed: delete it to start afresh).
    public static func load(_ path: String, fileSystem: FileSystem = PosixFileSystem()) throws -> NewsMark? {
        let bytes: [UInt8]
        do {
            // A mark is two numbers: one far larger (a gigabyte put there)
            // is not read whole to say so.
            if let status = try fileSystem.linkStatus(path), status.kind == .regular, status.size > 4096 {
                throw PMError.stateCorrupt(path: path, line: nil, column: nil, reason: nil, file: .newsMark)
            }
            bytes = try fileSystem.readFileNoFollow(path)
        } catch let error as SystemCallError {
            switch error.code {
            case 2, 20: return nil  // ENOENT, ENOTDIR
            case 40, 21: throw PMError.unsafeFile(path: path)  // ELOOP, EISDIR
            default: throw PMError.readFailed(path: path, error)
            }
        }
        return try BoardDecoder.decodeStateFile(bytes, path: path, file: .newsMark) { reader -> NewsMark in
            var mark = NewsMark(events: -1, length: -1)
            let start = reader.index
            try reader.readObject { key, reader in
                let at = reader.index
                switch key {
                case "events", "length":
                    let value = try reader.readInt(field: key)
                    guard value >= 0 else { throw JSONReader.Failure(offset: at, reason: .field(key)) }
                    if key == "events" { mark.events = value } else { mark.length = value }
                default: _ = try reader.readValue()
                }
            }
            guard mark.events >= 0 else { throw JSONReader.Failure(offset: start, reason: .field("events")) }
            guard mark.length >= 0 else { throw JSONReader.Failure(offset: start, reason: .field("length")) }
            return mark
        }
    }

    /// Saves the mark at `path` (atomically, readable by its owner only).
    public func save(_ path: String, fileSystem: FileSystem = PosixFileSystem()) throws {
        var writer = JSONWriter()
        writer.object(
            [("events", { $0.raw(String(events)) }), ("length", { $0.raw(String(length)) })], level: 0)
        writer.raw("\n")
        try AtomicFileWriter.saveStateFile(writer, to: path, role: .newsMark, fileSystem: fileSystem)
    }
}

/// What others changed since a mark: their events in the order they
/// arrived, and where the log ends (the next mark).
public struct News: Sendable {
    public var events: [Event]
    public var end: NewsMark
    /// False when there was no mark (or the log was replaced since): then
    /// `events` are only the newest ones, not everything.
    public var sinceMark: Bool
}

extension EventLogFile {
    /// What other copies than this one (its replicas `mine`) changed since
    /// `mark`, read from the mark to the end; without a usable mark (none,
    /// or a log shorter than it or not ending a line there: replaced
    /// since), the `newest` last events. `current` is where the log stands
    /// (its events and bytes), for a new mark. By replica, not by name: a
    /// change signed with another's key that names this user as its author
    /// is news to them (issue 43, item 9), not hidden as their own.
    public func news(since mark: NewsMark?, mine: Set<TaskID>, newest: Int, current: NewsMark) throws -> News {
        if let mark, let tail = try? read(after: LogPosition(events: mark.events, length: mark.length)) {
            let others = tail.events.filter { !mine.contains($0.replica) && HistoryEvent($0) != nil }
            return News(events: others, end: NewsMark(events: mark.events + tail.events.count, length: tail.end), sinceMark: true)
        }
        let recent = try readNewest(newest).reversed().filter { !mine.contains($0.replica) && HistoryEvent($0) != nil }
        return News(events: recent, end: current, sinceMark: false)
    }

    /// How many changes from other copies than this one (its replicas
    /// `mine`) arrived after `mark`, reading at most `limit` bytes: nil when
    /// the mark does not fit the log, and whether the count is whole (else:
    /// at least that many).
    public func othersWaiting(since mark: NewsMark, mine: Set<TaskID>, limit: Int) throws -> (count: Int, whole: Bool)? {
        guard let descriptor = try? fileSystem.openForReading(path) else { return mark.length == 0 ? (0, true) : nil }
        defer { try? fileSystem.close(descriptor) }
        let status = try fileSystem.descriptorStatus(descriptor)
        guard status.kind == .regular, status.links == 1 else { throw PMError.unsafeFile(path: path) }
        let size = Int(status.size)
        guard size >= mark.length else { return nil }
        if size == mark.length { return (0, true) }
        let from = max(0, mark.length - 1)
        let bytes = try fileSystem.read(descriptor, at: from, count: min(size - from, limit))
        guard mark.length == 0 || bytes.first == 0x0A else { return nil }
        let own = mine.map { Array("\"replica\":\"\($0.rawValue)\"".utf8) }
        let record = Array("\"kind\":\"\(Event.boardKind)\"".utf8)
        var count = 0
        bytes.withUnsafeBufferPointer { buffer in
            var start = mark.length == 0 ? 0 : 1
            while start < buffer.count, let end = buffer[start...].firstIndex(of: 0x0A) {
                let line = UnsafeBufferPointer(rebasing: buffer[start..<end])
                if !own.contains(where: { Self.contains(line, $0) }) && !Self.contains(line, record) { count += 1 }
                start = end + 1
            }
        }
        return (count, from + bytes.count >= size)
    }

    private static func contains(_ line: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard line.count >= needle.count, let first = needle.first else { return false }
        var index = 0
        while index + needle.count <= line.count {
            if line[index] == first, needle.indices.allSatisfy({ line[index + $0] == needle[$0] }) { return true }
            index += 1
        }
        return false
    }
}
