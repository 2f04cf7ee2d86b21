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
    /// Where reading stopped because the file passed its budget (bytes
    /// read), nil when it was read to its end: the rest was left out.
    public var cutAfterBytes: Int?
    /// Whether reading stopped at a line longer than any pm writes, rather
    /// than at the budget.
    public var stoppedAtLongLine = false

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

    /// How much of a file from elsewhere is read at most (a replica's log of
    /// a few hundred thousand events; a sparse or growing file stops here).
    public static let maximumBytes = 128 << 20
    /// How much of all the files from elsewhere one command reads at most.
    public static let totalBytes = 512 << 20

    /// Reads a copy at `path`: a board (schema 2: its log beside it is read)
    /// or an event log, within `budget` (bytes, shared by the files of one
    /// command) and ``maximumBytes`` per file.
    /// - Throws: ``PMError/mergeOldFormat(path:)``, ``PMError/mergeNoLog(path:log:)``,
    ///   ``PMError/newerSchema(path:found:supported:)``, read errors.
    public static func read(_ path: String, fileSystem: FileSystem = PosixFileSystem(), budget: inout Int) throws -> OtherCopy {
        let head = try peek(path, fileSystem: fileSystem)
        // A log's lines are objects too: a board is one object over several lines.
        if firstSignificantByte(head) == UInt8(ascii: "{"), !looksLikeEventLine(head) {
            let board = try BoardDecoder.decode(try readWhole(path, fileSystem: fileSystem, budget: &budget), path: path)
            if board.schemaVersion < 2 { throw PMError.mergeOldFormat(path: path) }
            if board.schemaVersion > Board.currentSchemaVersion {
                throw PMError.newerSchema(path: path, found: board.schemaVersion, supported: Board.currentSchemaVersion)
            }
            let log = EventLogFile(boardPath: path, fileSystem: fileSystem)
            guard try log.exists() else { throw PMError.mergeNoLog(path: path, log: log.path) }
            var events = try stream(log.path, fileSystem: fileSystem, budget: &budget)
            events.boardID = board.id
            return events
        }
        return try stream(path, fileSystem: fileSystem, budget: &budget)
    }

    /// The same, with a budget of its own.
    public static func read(_ path: String, fileSystem: FileSystem = PosixFileSystem()) throws -> OtherCopy {
        var budget = totalBytes
        return try read(path, fileSystem: fileSystem, budget: &budget)
    }

    /// Whether the file at `path` may be a copy of a board, from its first
    /// bytes alone: a board object, or a first line that is an event. Junk
    /// (a sparse file of zeros, another program's file) is told apart
    /// without reading it, however large it is.
    public static func mayBeCopy(_ path: String, fileSystem: FileSystem = PosixFileSystem()) -> Bool {
        guard let head = try? peek(path, fileSystem: fileSystem), firstSignificantByte(head) == UInt8(ascii: "{") else {
            return false
        }
        return head.contains(0x0A)
    }

    private static func firstSignificantByte(_ bytes: [UInt8]) -> UInt8? {
        bytes.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
    }

    /// The first bytes of a regular file (never through a link).
    private static func peek(_ path: String, fileSystem: FileSystem) throws -> [UInt8] {
        var head: [UInt8] = []
        _ = try forEachChunk(of: path, fileSystem: fileSystem, allowance: 65_536) { chunk in
            head += chunk
            return true
        }
        return head
    }

    /// A board file whole, within the budget; one larger is refused (EFBIG).
    private static func readWhole(_ path: String, fileSystem: FileSystem, budget: inout Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        let (read, more) = try forEachChunk(of: path, fileSystem: fileSystem, allowance: min(maximumBytes, budget)) { chunk in
            bytes += chunk
            return true
        }
        budget -= read
        if more { throw PMError.readFailed(path: path, SystemCallError(call: "read", code: 27)) }
        return bytes
    }

    /// Reads the regular file at `path` (never through a link) a chunk at a
    /// time on its open descriptor, at most `allowance` bytes however it
    /// grows meanwhile, until `body` says stop.
    /// - Returns: the bytes read, and whether the file held more.
    private static func forEachChunk(
        of path: String, fileSystem: FileSystem, allowance: Int, _ body: (ArraySlice<UInt8>) -> Bool
    ) throws -> (read: Int, more: Bool) {
        let descriptor: Int32?
        do {
            descriptor = try fileSystem.openForReading(path)
        } catch let error as SystemCallError {
            // ELOOP: a symbolic link, never followed.
            if error.code == 40 { throw PMError.notARegularFile(path: path) }
            throw PMError.readFailed(path: path, error)
        }
        guard let descriptor else { throw PMError.readFailed(path: path, SystemCallError(call: "open", code: 2)) }
        defer { try? fileSystem.close(descriptor) }
        guard (try? fileSystem.descriptorStatus(descriptor))?.kind == .regular else { throw PMError.notARegularFile(path: path) }
        var offset = 0
        do {
            while offset < allowance {
                let chunk = try fileSystem.read(descriptor, at: offset, count: min(65_536, allowance - offset))
                if chunk.isEmpty { return (offset, false) }
                offset += chunk.count
                if !body(chunk[...]) { return (offset, true) }
            }
            return (offset, !(try fileSystem.read(descriptor, at: offset, count: 1)).isEmpty)
        } catch let error as SystemCallError {
            throw PMError.readFailed(path: path, error)
        }
    }

    /// Streams the events of the lines of `path` within ``maximumBytes`` and
    /// what is left of `budget`; a line longer than any pm writes
    /// (``EventProblem/lineLimit``) stops the reading: what follows is not a
    /// log (a sparse file's zeros, a binary). A torn last line is not an
    /// event yet.
    public static func stream(_ path: String, fileSystem: FileSystem = PosixFileSystem(), budget: inout Int) throws -> OtherCopy {
        var copy = OtherCopy()
        var line: [UInt8] = []
        var number = 1
        let (read, more) = try forEachChunk(of: path, fileSystem: fileSystem, allowance: max(0, min(maximumBytes, budget))) {
            chunk in
            var start = chunk.startIndex
            while let newline = chunk[start...].firstIndex(of: 0x0A) {
                line += chunk[start..<newline]
                if line.last == 0x0D { line.removeLast() }
                if let event = line.isEmpty ? nil : try? EventCodec.decode(line: line[...]) {
                    copy.events.append(event)
                    copy.lines.append(number)
                } else if !line.isEmpty {
                    copy.skip(number)
                }
                line.removeAll(keepingCapacity: true)
                number += 1
                start = newline + 1
            }
            line += chunk[start...]
            guard line.count <= EventProblem.lineLimit else {
                copy.skip(number)
                copy.stoppedAtLongLine = true
                return false
            }
            return true
        }
        budget -= read
        if more { copy.cutAfterBytes = read }
        return copy
    }

    private mutating func skip(_ line: Int) {
        skippedLines += 1
        if firstSkippedLine == nil { firstSkippedLine = line }
    }

    /// Whether the first line is a whole JSON object on its own (an event
    /// line), rather than the start of a pretty-printed board.
    private static func looksLikeEventLine(_ bytes: [UInt8]) -> Bool {
        guard let newline = bytes.firstIndex(of: 0x0A) else { return false }
        return (try? EventCodec.decode(line: bytes[..<newline])) != nil
    }
}
