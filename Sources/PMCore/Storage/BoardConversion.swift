/// A board of schema 1 (a history in the file, no log) becomes a board of
/// schema 2 and the events that replace its history.
extension BoardStore {
    /// Converts a board to schema 2 in memory: the events that replace its
    /// history (schema 1) or its missing log; the board stands at their end.
    func convert(_ board: inout Board, replica: TaskID) throws -> [Event] {
        var counter = 0
        let prefix = board.id.rawValue.prefix(24)
        // The board's record first: the log alone says which board it is.
        let events =
            try [Event.boardRecord(board.id)]
            + sealed(
                LegacyMigration.events(for: board, replica: replica) {
                    counter += 1
                    let tail = String(counter, radix: 16)
                    return TaskID(unchecked: prefix + String(repeating: "0", count: 12 - tail.count) + tail)
                })
        board.schemaVersion = 2
        board.history = HistoryLog()
        // The same tasks (the migration's promise), with the heads only a fold knows.
        let folded = FoldedTasks.fold(events)
        board.tasks = folded.ordered
        board.log = LogPosition(
            events: events.count, length: events.reduce(0) { $0 + EventCodec.line($1).count },
            newest: FoldedTasks.inMergeOrder(events).last, replicas: folded.ledger)
        return events
    }
}
