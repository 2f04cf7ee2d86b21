/// The board's id, recorded in its log (issue 20): the log is the truth, so
/// a lost `board.json` is rebuilt as the same board — sync and undo go on.
///
/// The record is an event of kind `board` whose id, replica and task are all
/// the board's id, at the start of time: every copy writes the same line,
/// the fold passes it by (an older pm too: a kind it does not know), it is
/// never published, and history does not show it. A new log starts with it;
/// an older log gets it at its next write; a copy that joins another board
/// appends the other's.
extension Event {
    public static let boardKind = "board"

    /// The line that records `board` in a log.
    public static func boardRecord(_ board: TaskID) -> Event {
        Event(
            id: board, replica: board, author: "pm", at: "1970-01-01T00:00:00.000Z",
            clock: HybridClock(milliseconds: 0, counter: 0), task: board, kind: .other(boardKind))
    }

    /// The board a record names, if this is one (its id, replica and task agree).
    public var recordedBoard: TaskID? {
        guard case .other(Self.boardKind) = kind, replica == id, task == id else { return nil }
        return id
    }
}

extension EventLogFile {
    /// The board the log records, the latest record if there are several (a
    /// copy that joined another board, `pm sync --join`, records it at the
    /// end); nil: an older log that has none yet. Searches the log from its
    /// end: only when a board file is lost, once. Records only come from
    /// this copy's own writes: a merge never takes one from elsewhere.
    public func recordedBoard() throws -> TaskID? {
        var found: TaskID?
        try scanBackward(mentioning: Array("\"kind\":\"\(Event.boardKind)\"".utf8)) { event, _ in
            found = event.recordedBoard
            return found == nil
        }
        return found
    }
}
