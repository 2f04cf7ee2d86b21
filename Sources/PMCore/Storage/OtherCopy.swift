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
    /// or an event log, streamed within `budget` (bytes, shared by the files
    /// of one command) and ``maximumBytes`` per file.
    /// - Throws: ``PMError/mergeOldFormat(path:)``, ``PMError/mergeNoLog(path:log:)``,
    ///   ``PMError/newerSchema(path:found:supported:)``, read errors.
    public static func read(_ path: String, fileSystem: FileSystem = PosixFileSystem(), budget: inout Int) throws -> OtherCopy {
        let head = try peek(path, fileSystem: fileSystem)
        let first = head.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        // A log's lines are objects too: a board is one object over several lines.
        if first == UInt8(ascii: "{"), !looksLikeEventLine(head) {
            var copy = try stream(path, fileSystem: fileSystem, budget: &budget, keepBytes: true)
            if copy.cutAfterBytes != nil { throw PMError.readFailed(path: path, SystemCallError(call: "read", code: 27)) }
            let board = try BoardDecoder.decode(copy.bytes, path: path)
            copy.bytes = []
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
        guard let head = try? peek(path, fileSystem: fileSystem) else { return false }
        let first = head.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        guard first == UInt8(ascii: "{") else { return false }
        return looksLikeEventLine(head) || head.firstIndex(of: 0x0A) != nil
    }

    /// The first bytes of a regular file (never through a link).
    private static func peek(_ path: String, fileSystem: FileSystem) throws -> [UInt8] {
        let descriptor = try openRegular(path, fileSystem: fileSystem)
        defer { try? fileSystem.close(descriptor) }
        do {
            return try fileSystem.read(descriptor, at: 0, count: 65_536)
        } catch let error as SystemCallError {
            throw PMError.readFailed(path: path, error)
        }
    }

    private static func openRegular(_ path: String, fileSystem: FileSystem) throws -> Int32 {
        let descriptor: Int32?
        do {
            descriptor = try fileSystem.openForReading(path)
        } catch let error as SystemCallError {
            // ELOOP: a symbolic link, never followed.
            if error.code == 40 { throw PMError.notARegularFile(path: path) }
            throw PMError.readFailed(path: path, error)
        }
        guard let descriptor else { throw PMError.readFailed(path: path, SystemCallError(call: "open", code: 2)) }
        guard (try? fileSystem.descriptorStatus(descriptor))?.kind == .regular else {
            try? fileSystem.close(descriptor)
            throw PMError.notARegularFile(path: path)
        }
        return descriptor
    }

    /// The bytes a board copy was read as (only while it is decoded).
    private var bytes: [UInt8] = []

    /// Streams the events of the lines of `path`, a chunk at a time, on the
    /// open descriptor: at most ``maximumBytes`` and what is left of
    /// `budget` (a file that grows while read stops there too); a line past
    /// ``EventProblem/lineLimit`` is skipped without being kept.
    public static func stream(
        _ path: String, fileSystem: FileSystem = PosixFileSystem(), budget: inout Int, keepBytes: Bool = false
    ) throws -> OtherCopy {
        let descriptor = try openRegular(path, fileSystem: fileSystem)
        defer { try? fileSystem.close(descriptor) }
        var copy = OtherCopy()
        let allowance = max(0, min(maximumBytes, budget))
        var offset = 0
        var line: [UInt8] = []
        var overlong = false
        var number = 1
        func finish(_ line: [UInt8]) {
            var end = line.count
            if end > 0, line[end - 1] == 0x0D { end -= 1 }
            if overlong || end > EventProblem.lineLimit {
                copy.skip(number)
            } else if end > 0 {
                if let event = try? EventCodec.decode(line: line[0..<end]) {
                    copy.events.append(event)
                    copy.lines.append(number)
                } else {
                    copy.skip(number)
                }
            }
            number += 1
            overlong = false
        }
        while offset < allowance {
            let chunk: [UInt8]
            do {
                chunk = try fileSystem.read(descriptor, at: offset, count: min(65_536, allowance - offset))
            } catch let error as SystemCallError {
                throw PMError.readFailed(path: path, error)
            }
            if chunk.isEmpty { break }
            offset += chunk.count
            if keepBytes { copy.bytes += chunk }
            var start = 0
            while let newline = chunk[start...].firstIndex(of: 0x0A) {
                if !overlong { line += chunk[start..<newline] }
                finish(line)
                line.removeAll(keepingCapacity: true)
                start = newline + 1
            }
            if !overlong {
                line += chunk[start...]
                if line.count > EventProblem.lineLimit {
                    // No line pm writes is this long: what follows is not a
                    // log (a sparse file's zeros, a binary), and is not read.
                    copy.skip(number)
                    copy.cutAfterBytes = offset
                    copy.stoppedAtLongLine = true
                    break
                }
            }
        }
        budget -= offset
        if copy.cutAfterBytes != nil { return copy }
        // More there than was read: the rest is left out (a torn last line
        // read whole is only not an event yet).
        if offset == allowance, let more = try? fileSystem.read(descriptor, at: offset, count: 1), !more.isEmpty {
            copy.cutAfterBytes = offset
        }
        return copy
    }

    private mutating func skip(_ line: Int) {
        skippedLines += 1
        if firstSkippedLine == nil { firstSkippedLine = line }
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
                        copy.skip(line)
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
}
