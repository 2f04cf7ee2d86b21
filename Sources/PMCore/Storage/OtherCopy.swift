/// Another copy of a board, read as untrusted input for a merge: a
/// colleague's event log, a sync tool's conflicted copy, a board file with
/// its log beside it, or a replica's file on a remote.
///
/// Lines that are not events are left out and counted (never fatal: the good
/// events still merge); a torn last line is not an event yet.
public struct OtherCopy: Equatable, Sendable {
    /// The events it holds, in file order, and the line each is on.
    public var events: [Event]
    public var lines: [Int] = []
    /// The board the copy names, when it names one (a board file does; a bare log does not).
    public var boardID: TaskID?
    /// Lines left out (not events, or quarantined), and the first of them (1-based).
    public var skippedLines: Int
    public var firstSkippedLine: Int?

    /// Leaves out the events `problem` finds something wrong with, counting
    /// them as skipped lines.
    public mutating func quarantine(where problem: (Event) -> EventProblem?) {
        var kept: [Event] = []
        var keptLines: [Int] = []
        for (event, line) in zip(events, lines) {
            if problem(event) == nil {
                kept.append(event)
                keptLines.append(line)
            } else {
                skippedLines += 1
                firstSkippedLine = min(firstSkippedLine ?? line, line)
            }
        }
        (events, lines) = (kept, keptLines)
    }

    public init(events: [Event] = [], boardID: TaskID? = nil, skippedLines: Int = 0, firstSkippedLine: Int? = nil) {
        self.events = events
        self.boardID = boardID
        self.skippedLines = skippedLines
        self.firstSkippedLine = firstSkippedLine
    }

    /// The largest file read whole (a log of a million events is ~300 MB;
    /// anything bigger is not a copy of a board).
    public static let maximumBytes = 1 << 30

    /// Reads a copy at `path`: a board (schema 2: its log beside it is read)
    /// or an event log.
    /// - Throws: ``PMError/mergeOldFormat(path:)``, ``PMError/mergeNoLog(path:log:)``,
    ///   ``PMError/newerSchema(path:found:supported:)``, read errors.
    public static func read(_ path: String, fileSystem: FileSystem = PosixFileSystem()) throws -> OtherCopy {
        let bytes = try readRegularFile(path, fileSystem: fileSystem)
        let first = bytes.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        // A log's lines are objects too: a board is one object over several lines.
        if first == UInt8(ascii: "{"), !looksLikeEventLine(bytes) {
            let board = try BoardDecoder.decode(bytes, path: path)
            if board.schemaVersion < 2 { throw PMError.mergeOldFormat(path: path) }
            if board.schemaVersion > Board.currentSchemaVersion {
                throw PMError.newerSchema(path: path, found: board.schemaVersion, supported: Board.currentSchemaVersion)
            }
            let log = EventLogFile(boardPath: path, fileSystem: fileSystem)
            guard try log.exists() else { throw PMError.mergeNoLog(path: path, log: log.path) }
            var copy = parse(try readRegularFile(log.path, fileSystem: fileSystem))
            copy.boardID = board.id
            return copy
        }
        return parse(bytes)
    }

    /// Events from the lines of a log; what does not read is counted, not fatal.
    public static func parse(_ bytes: [UInt8]) -> OtherCopy {
        var copy = OtherCopy()
        let committed = (bytes.lastIndex(of: 0x0A).map { $0 + 1 }) ?? 0
        var start = 0
        var line = 1
        bytes.withUnsafeBufferPointer { buffer in
            while start < committed {
                var end = start
                while buffer[end] != 0x0A { end += 1 }
                var trimmed = end
                if trimmed > start, buffer[trimmed - 1] == 0x0D { trimmed -= 1 }
                if trimmed > start {
                    if let event = try? EventCodec.decode(line: UnsafeBufferPointer(rebasing: buffer[start..<trimmed])) {
                        copy.events.append(event)
                        copy.lines.append(line)
                    } else {
                        copy.skippedLines += 1
                        if copy.firstSkippedLine == nil { copy.firstSkippedLine = line }
                    }
                }
                start = end + 1
                line += 1
            }
        }
        return copy
    }

    /// Whether the first line is a whole JSON object on its own (an event
    /// line), rather than the start of a pretty-printed board.
    private static func looksLikeEventLine(_ bytes: [UInt8]) -> Bool {
        guard let newline = bytes.firstIndex(of: 0x0A) else { return false }
        return (try? EventCodec.decode(line: bytes[..<newline])) != nil
    }

    private static func readRegularFile(_ path: String, fileSystem: FileSystem) throws -> [UInt8] {
        let status: FileStatus?
        do {
            status = try fileSystem.status(path)
        } catch let error as SystemCallError {
            throw PMError.readFailed(path: path, error)
        }
        guard let status else { throw PMError.readFailed(path: path, SystemCallError(call: "open", code: 2)) }
        guard status.kind == .regular else { throw PMError.notARegularFile(path: path) }
        // EFBIG: bigger than any copy of a board.
        guard status.size <= maximumBytes else { throw PMError.readFailed(path: path, SystemCallError(call: "read", code: 27)) }
        do {
            return try fileSystem.readFile(path)
        } catch let error as SystemCallError {
            throw PMError.readFailed(path: path, error)
        }
    }
}
