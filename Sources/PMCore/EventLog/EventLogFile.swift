import PMICU

#if canImport(Glibc)
    import Glibc
#endif

/// The event log beside a board (`board.events.jsonl` beside `board.json`):
/// one event a line, append-only. The log is the truth (DESIGN.md §4).
///
/// - A line is committed once it ends in `\n` and was `fsync`ed; a last line
///   without its `\n` is a torn append (a crash mid-write), never committed:
///   readers skip it and the next writer cuts it off under the lock.
/// - Any other line that does not read is damage: refused with its line
///   number, and the log is never rewritten.
/// - The log is opened without following links and must be a regular file.
public struct EventLogFile: Sendable {
    /// The log's path.
    public let path: String
    let fileSystem: FileSystem
    /// How much is read at a time from the end when looking for the newest events.
    static let chunk = 1 << 16

    /// The log of the board whose file (symlinks resolved) is `boardPath`:
    /// `board.json` → `board.events.jsonl`.
    public init(boardPath: String, fileSystem: FileSystem = PosixFileSystem()) {
        let stem = boardPath.hasSuffix(".json") ? String(boardPath.dropLast(5)) : boardPath
        path = stem + ".events.jsonl"
        self.fileSystem = fileSystem
    }

    /// What the log holds.
    public struct Contents: Equatable, Sendable {
        /// Every committed event, oldest first.
        public var events: [Event]
        /// Bytes of committed lines: where a torn last line starts.
        public var committedLength: Int
        /// Bytes of a torn last line (0 when the log ends cleanly).
        public var tornLength: Int
    }

    /// Every committed event, oldest first (an empty log when there is no file).
    /// - Throws: ``PMError/logCorrupt(path:line:column:reason:)`` for a damaged
    ///   line, ``PMError/unsafeFile(path:)`` for a link or a non-regular file.
    public func readAll() throws -> Contents {
        guard let descriptor = try open() else { return Contents(events: [], committedLength: 0, tornLength: 0) }
        defer { try? fileSystem.close(descriptor) }
        let size = try checkedSize(descriptor)
        let bytes = try systemCall { try fileSystem.read(descriptor, at: 0, count: size) }
        let committed = (bytes.lastIndex(of: 0x0A).map { $0 + 1 }) ?? 0
        var events: [Event] = []
        var lineStart = 0
        var lineNumber = 1
        try bytes.withUnsafeBufferPointer { buffer in
            while lineStart < committed {
                var end = lineStart
                while buffer[end] != 0x0A { end += 1 }
                events.append(try decodeLine(buffer, lineStart..<end, lineNumber: lineNumber))
                lineStart = end + 1
                lineNumber += 1
            }
        }
        return Contents(events: events, committedLength: committed, tornLength: bytes.count - committed)
    }

    /// What a merge needs of the whole log without decoding it: every event
    /// id and the committed extent.
    public struct Index: Sendable {
        public var ids: Set<TaskID>
        public var events: Int
        public var committedLength: Int
    }

    /// Reads the log's index. The id of a line pm wrote is found where its
    /// compact, sorted encoding puts it (right after the clock); any other
    /// line is decoded in full, so the index is exact.
    /// - Throws: as ``readAll()``.
    public func index() throws -> Index {
        guard let descriptor = try open() else { return Index(ids: [], events: 0, committedLength: 0) }
        defer { try? fileSystem.close(descriptor) }
        let size = try checkedSize(descriptor)
        let bytes = try systemCall { try fileSystem.read(descriptor, at: 0, count: size) }
        let committed = (bytes.lastIndex(of: 0x0A).map { $0 + 1 }) ?? 0
        var index = Index(ids: [], events: 0, committedLength: committed)
        // `"id":"` occurs only as a key (a quote inside a string is escaped):
        // once in a line, it is the event's own id.
        let marker = Array("\"id\":\"".utf8)
        try bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            var lineNumber = 1
            while start < committed {
                guard let base = buffer.baseAddress else { break }
                let newline =
                    UnsafePointer(memchr(base + start, 0x0A, committed - start)!.assumingMemoryBound(to: UInt8.self)) - base
                let line = start..<newline
                var id: TaskID?
                if let hit = Self.firstMatch(marker, in: buffer, line), hit + marker.count + 37 <= newline,
                    buffer[hit + marker.count + 36] == UInt8(ascii: "\""),
                    Self.firstMatch(marker, in: buffer, (hit + marker.count)..<newline) == nil
                {
                    let text = String(
                        decoding: UnsafeBufferPointer(rebasing: buffer[(hit + marker.count)..<(hit + marker.count + 36)]),
                        as: UTF8.self)
                    id = TaskID(text)
                }
                if id == nil { id = try decodeLine(buffer, line, lineNumber: lineNumber).id }
                if let id { index.ids.insert(id) }
                index.events += 1
                start = newline + 1
                lineNumber += 1
            }
        }
        return index
    }

    /// Where `needle` first occurs in `range` of `buffer`.
    private static func firstMatch(_ needle: [UInt8], in buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        guard let base = buffer.baseAddress else { return nil }
        return needle.withUnsafeBytes { pattern -> Int? in
            guard let found = glibcMemmem(base + range.lowerBound, range.count, pattern.baseAddress!, pattern.count) else {
                return nil
            }
            return UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
        }
    }

    /// The committed events after where a board stands, oldest first, and
    /// where the committed lines end: what a reader folds in.
    /// - Throws: ``PMError/logCorrupt(path:line:column:reason:)`` when the log
    ///   is shorter than the board says or does not end a line there.
    public func read(after position: LogPosition) throws -> (events: [Event], end: Int) {
        guard let descriptor = try open() else {
            if position.length == 0 { return ([], 0) }
            throw PMError.logCorrupt(path: path, line: position.events, column: 1, reason: .truncated)
        }
        defer { try? fileSystem.close(descriptor) }
        let size = try checkedSize(descriptor)
        guard size >= position.length else {
            throw PMError.logCorrupt(path: path, line: position.events, column: 1, reason: .truncated)
        }
        let bytes = try systemCall {
            try fileSystem.read(descriptor, at: max(0, position.length - 1), count: size - max(0, position.length - 1))
        }
        var offset = 0
        if position.length > 0 {
            guard bytes.first == 0x0A else {
                throw PMError.logCorrupt(path: path, line: position.events, column: 1, reason: .syntax)
            }
            offset = 1
        }
        let committed = (bytes.lastIndex(of: 0x0A).map { $0 + 1 }) ?? 0
        var events: [Event] = []
        var lineNumber = position.events + 1
        try bytes.withUnsafeBufferPointer { buffer in
            var start = offset
            while start < committed {
                var end = start
                while buffer[end] != 0x0A { end += 1 }
                events.append(try decodeLine(buffer, start..<end, lineNumber: lineNumber))
                start = end + 1
                lineNumber += 1
            }
        }
        return (events, max(position.length, max(0, position.length - 1) + committed))
    }

    /// The newest `count` committed events, newest first, reading the log
    /// backwards from its end: the cost does not grow with the log's length.
    /// - Throws: as ``readAll()``.
    public func readNewest(_ count: Int) throws -> [Event] { try readNewest(count, mentioning: nil) }

    /// The newest `count` events whose line holds `needle` (nil: every
    /// event), newest first, reading backwards from the end. Lines without
    /// the needle are skipped undecoded, so finding one task's events costs
    /// a byte search per line.
    public func readNewest(_ count: Int, mentioning needle: [UInt8]?) throws -> [Event] {
        var events: [Event] = []
        guard count > 0 else { return [] }
        try scanBackward(mentioning: needle) { event, _ in
            events.append(event)
            return events.count < count
        }
        return events
    }

    /// Calls `visit` with each committed event whose line holds `needle`
    /// (nil: every event) and the byte offset where its line starts, from
    /// the last line back, until it returns false. Lines without the
    /// needle are skipped undecoded.
    public func scanBackward(mentioning needle: [UInt8]?, _ visit: (Event, Int) throws -> Bool) throws {
        guard let descriptor = try open() else { return }
        defer { try? fileSystem.close(descriptor) }
        var position = try committedEnd(descriptor, size: try checkedSize(descriptor))
        // Bytes from `position` on that are not decoded yet; they end in `\n`.
        var buffer: [UInt8] = []
        var going = true
        while going, position > 0 {
            let from = max(0, position - max(Self.chunk, buffer.count))
            buffer = try systemCall { try fileSystem.read(descriptor, at: from, count: position - from) } + buffer
            position = from
            var end = buffer.count
            try buffer.withUnsafeBufferPointer { bytes in
                while going, end > 0 {
                    var start = end - 1
                    while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
                    // A line that begins in an earlier chunk waits for it.
                    if start == 0, position > 0 { break }
                    do {
                        if let needle, !Self.line(bytes, start..<(end - 1), contains: needle) {
                            end = start
                            continue
                        }
                        going = try visit(try decodeLine(bytes, start..<(end - 1), lineNumber: nil), position + start)
                    } catch PMError.logCorrupt(_, _, let column, let reason) {
                        let line = try lineNumber(at: position + start, in: descriptor)
                        throw PMError.logCorrupt(path: path, line: line, column: column, reason: reason)
                    }
                    end = start
                }
            }
            buffer.removeSubrange(end...)
        }
    }

    private static func line(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, contains needle: [UInt8]) -> Bool {
        guard let base = bytes.baseAddress, !needle.isEmpty else { return true }
        return needle.withUnsafeBytes { pattern in
            glibcMemmem(base + range.lowerBound, range.count, pattern.baseAddress!, pattern.count) != nil
        }
    }

    /// Where the committed lines end: after the last `\n` (a torn append after it is skipped).
    private func committedEnd(_ descriptor: Int32, size: Int) throws -> Int {
        var position = size
        while position > 0 {
            let from = max(0, position - Self.chunk)
            let piece = try systemCall { try fileSystem.read(descriptor, at: from, count: position - from) }
            if let last = piece.lastIndex(of: 0x0A) { return from + last + 1 }
            position = from
        }
        return 0
    }

    /// Whether the log file exists (a `board.json` copied alone has none).
    public func exists() throws -> Bool {
        do {
            return try fileSystem.linkStatus(path) != nil
        } catch let error as SystemCallError {
            throw PMError.readFailed(path: path, error)
        }
    }

    /// Whether the event with this id is in the log at or after `offset`,
    /// where its change began appending: only what was appended since is
    /// read, never the past (a log put back from a backup, shorter than the
    /// offset, reads nothing).
    public func contains(eventID: TaskID, from offset: Int) throws -> Bool {
        guard let descriptor = try open() else { return false }
        defer { try? fileSystem.close(descriptor) }
        let needle = Array("\"id\":\"\(eventID.rawValue)\"".utf8)
        let size = try checkedSize(descriptor)
        var position = max(0, offset)
        while position < size {
            // Overlap chunks by the needle's length so no match is cut in two.
            let end = min(size, position + Self.chunk + needle.count)
            let piece = try systemCall { try fileSystem.read(descriptor, at: position, count: end - position) }
            if piece.firstOffset(of: needle) != nil { return true }
            position += Self.chunk
        }
        return false
    }

    /// Whether the event with this id is in the log: searched backwards from
    /// the end, where a recent event is. Only for an undo step saved before
    /// steps knew their log offset (it reads the whole log when absent).
    public func contains(eventID: TaskID) throws -> Bool {
        guard let descriptor = try open() else { return false }
        defer { try? fileSystem.close(descriptor) }
        let needle = Array("\"id\":\"\(eventID.rawValue)\"".utf8)
        var position = try checkedSize(descriptor)
        while position > 0 {
            // Overlap chunks by the needle's length so no match is cut in two.
            let from = max(0, position - Self.chunk)
            let end = min(try checkedSize(descriptor), position + needle.count)
            let piece = try systemCall { try fileSystem.read(descriptor, at: from, count: end - from) }
            if piece.firstOffset(of: needle) != nil { return true }
            position = from
        }
        return false
    }

    /// Appends `events` as lines and `fsync`s them. The caller holds the
    /// board's lock. A torn last line left by a crash is cut off first.
    /// - Returns: where the committed lines now end.
    /// - Throws: ``PMError/saveFailed(path:_:file:)``; what was committed is intact.
    @discardableResult
    public func append(_ events: [Event]) throws -> Int {
        guard !events.isEmpty else { return 0 }
        // Nothing pm writes can be refused by pm: each line reads back as its event.
        var lines: [[UInt8]] = []
        lines.reserveCapacity(events.count)
        for event in events {
            let line = EventCodec.line(event)
            guard (try? EventCodec.decode(line: line.dropLast())) == event else { throw PMError.unreadableWrite(path: path) }
            lines.append(line)
        }
        let descriptor: Int32
        do {
            descriptor = try fileSystem.openForAppend(path)
        } catch let error as SystemCallError {
            if error.code == 40 { throw PMError.unsafeFile(path: path) }  // ELOOP
            throw PMError.saveFailed(path: path, error)
        }
        defer { try? fileSystem.close(descriptor) }
        let size = try checkedSize(descriptor)
        do {
            var end = size
            if size > 0, try fileSystem.read(descriptor, at: size - 1, count: 1) != [0x0A] {
                end = try committedEnd(descriptor, size: size)
                try fileSystem.truncate(descriptor, to: end)
            }
            let bytes = lines.flatMap { $0 }
            do {
                try fileSystem.write(descriptor, bytes[...])
                try fileSystem.sync(descriptor)
            } catch {
                // Not committed: take back what may have reached the file, so a
                // command that failed leaves no event behind.
                try? fileSystem.truncate(descriptor, to: end)
                throw error
            }
            return end + bytes.count
        } catch let error as SystemCallError {
            throw PMError.saveFailed(path: path, error)
        }
    }

    // MARK: Helpers

    private func open() throws -> Int32? {
        do {
            return try fileSystem.openForReading(path)
        } catch let error as SystemCallError {
            if error.code == 40 { throw PMError.unsafeFile(path: path) }  // ELOOP
            throw PMError.readFailed(path: path, error)
        }
    }

    /// The open file's size, after checking it is a regular file with one name.
    private func checkedSize(_ descriptor: Int32) throws -> Int {
        let status = try systemCall { try fileSystem.descriptorStatus(descriptor) }
        guard status.kind == .regular, status.links == 1 else { throw PMError.unsafeFile(path: path) }
        return Int(status.size)
    }

    /// The 1-based line number of the line starting at byte `offset` (read
    /// only when reporting damage).
    private func lineNumber(at offset: Int, in descriptor: Int32) throws -> Int {
        let before = try systemCall { try fileSystem.read(descriptor, at: 0, count: offset) }
        return before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    }

    private func decodeLine(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, lineNumber: Int?) throws -> Event {
        do {
            return try EventCodec.decode(line: UnsafeBufferPointer(rebasing: buffer[range]))
        } catch let failure as EventCodec.LineFailure {
            var reason = failure.reason
            if case .invalidUTF8(let offset) = reason { reason = .invalidUTF8(byteOffset: range.lowerBound + offset) }
            throw PMError.logCorrupt(path: path, line: lineNumber ?? 0, column: failure.column, reason: reason)
        }
    }

    private func systemCall<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SystemCallError {
            throw PMError.readFailed(path: path, error)
        }
    }
}
