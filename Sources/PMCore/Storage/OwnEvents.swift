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
        let log = try eventLog()
        return Int((try? fileSystem.status(log.path))??.size ?? 0)
    }
}
