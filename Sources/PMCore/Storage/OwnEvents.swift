/// What a sync asks of the local log: this replica's own events since a
/// position (what it has to publish), and how long the log is.
extension BoardStore {
    /// How many events `replica` made that come after `position` in the log
    /// (all of them when the log no longer matches the position).
    public func ownEvents(after position: LogPosition, replica: TaskID) throws -> Int {
        try ownEventList(after: position, replica: replica).count
    }

    /// The events `replica` made that come after `position` in the log, in
    /// log order (all of them when the log no longer matches the position).
    public func ownEventList(after position: LogPosition, replica: TaskID) throws -> [Event] {
        try eventList(after: position).filter { $0.replica == replica }
    }

    /// Every event after `position` in the log, in log order (all of them
    /// when the log no longer matches the position).
    public func eventList(after position: LogPosition) throws -> [Event] {
        let log = try eventLog()
        guard try log.exists() else { return [] }
        if let tail = try? log.read(after: position).events { return tail }
        return try log.readAll().events
    }

    /// Makes this board the board `id` (`pm sync --join`): every task and
    /// change stays, only the id the board answers to changes, so the next
    /// sync merges it into the remote's board and publishes its changes.
    /// - Returns: the id it had.
    public func adopt(_ id: TaskID) throws -> TaskID? {
        try withLock { _, target in
            let current = try read(target)
            guard var board = try current?.board ?? (eventLog(of: target).exists() ? Board(id: id) : nil) else { return nil }
            let old = current?.board.id
            board.id = id
            // The log says it too: a board file lost later is made again as
            // the board joined, not as the one left (issue 43, item 14).
            let log = eventLog(of: target)
            if old != id, try log.exists() { try record(id, in: log, board: &board, wasCurrent: current != nil) }
            try writeBoard(board, to: target, mode: current?.status.mode ?? 0o644)
            return old
        }
    }
}

extension BoardStore {
    /// The id of the log's line that ends at byte `length` (nil: none
    /// there): what a sync remembers to tell, next time, that the log is
    /// still the one it synced — not one put back from a backup.
    public func eventID(endingAt length: Int) -> TaskID? {
        guard length > 0, let log = try? eventLog(), let descriptor = try? fileSystem.openForReading(log.path) else {
            return nil
        }
        defer { try? fileSystem.close(descriptor) }
        // A line is rarely longer than 64 KB: read more only for one that is.
        for window in [65_536, EventProblem.lineLimit + 1] {
            let from = max(0, length - window)
            guard let bytes = try? fileSystem.read(descriptor, at: from, count: length - from), bytes.count == length - from,
                bytes.last == 0x0A
            else { return nil }
            guard let newline = bytes.dropLast().lastIndex(of: 0x0A) ?? (from == 0 ? -1 : nil) else { continue }
            return (try? EventCodec.decode(line: bytes[(newline + 1)..<(bytes.count - 1)]))?.id
        }
        return nil
    }

    /// Makes the log record `id` as its board: its record line rewritten in
    /// place, the same length (a board id is always 36 characters), so that
    /// the log holds the same lines as every other copy's and every offset
    /// into it stays true; the file replaced whole, atomically (joining is
    /// once in a board's life). A record written otherwise, or none, gets
    /// the new record appended.
    private func record(_ id: TaskID, in log: EventLogFile, board: inout Board, wasCurrent: Bool) throws {
        var found: (board: TaskID, offset: Int)?
        try log.scanBackward(mentioning: Array("\"kind\":\"\(Event.boardKind)\"".utf8)) { event, offset in
            found = event.recordedBoard.map { ($0, offset) }
            return found == nil
        }
        if found?.board == id { return }
        let status = try fileSystem.status(log.path)
        if let found, let status {
            let was = EventCodec.line(Event.boardRecord(found.board))
            let now = EventCodec.line(Event.boardRecord(id))
            var bytes = try fileSystem.readFile(log.path)
            if was.count == now.count, bytes.count >= found.offset + was.count,
                bytes[found.offset..<(found.offset + was.count)].elementsEqual(was)
            {
                bytes.replaceSubrange(found.offset..<(found.offset + was.count), with: now)
                _ = try AtomicFileWriter(fileSystem: fileSystem).write([bytes[...]], to: log.path, mode: status.mode)
                return
            }
        }
        let size = Int(status?.size ?? 0)
        let end = try log.append([Event.boardRecord(id)])
        // The board keeps up with its log only when it did before.
        if wasCurrent, board.log.length == size {
            board.log.events += 1
            board.log.length = end
        }
    }
}
