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
}
