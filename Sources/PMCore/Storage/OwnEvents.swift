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
        let log = try eventLog()
        guard try log.exists() else { return [] }
        let events: [Event]
        if let tail = try? log.read(after: position).events {
            events = tail
        } else {
            events = try log.readAll().events
        }
        return events.filter { $0.replica == replica }
    }

    /// The size of the board's log file, 0 when there is none (a stat, nothing read).
    public func logFileSize() throws -> Int {
        try logSize(try eventLog())
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
