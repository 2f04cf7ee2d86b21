/// The history's marks beside a log (``HistoryMarks``), kept as the log
/// grows: a part of each commit. A mark that cannot be written costs only
/// speed: nothing here ever fails a change.
struct HistoryMarksFile {
    let fileSystem: FileSystem
    let log: EventLogFile
    /// The mode the marks file is written with (the board's).
    let mode: UInt32

    var path: String { HistoryMarks.path(ofLog: log.path) }

    /// Before events from elsewhere are appended at `start..<end` (a log
    /// rewritten whole: `start` 0), after the board's last event `bound`.
    func recordMerged(start: Int, end: Int, bound: EventOrder?) {
        var marks =
            start == 0
            ? HistoryMarks(from: 0)
            : HistoryMarks.load(path, logLength: start, fileSystem: fileSystem) ?? HistoryMarks(from: start)
        marks.record(HistoryMarks.Batch(start: start, end: end, bound: start == 0 ? nil : bound))
        save(marks)
    }

    /// Before a log is written whole in merge order (a conversion): marks
    /// that know all of it and hold no batch.
    func fromStart() {
        save(HistoryMarks(from: 0))
    }

    /// Before a write appends at `start`: the board's record, when the log
    /// does not hold it yet (searched for once, then remembered in the
    /// marks); nil when the marks already say it is there (nothing to note).
    func recordNeeded(board: TaskID, at start: Int) -> [Event]? {
        let marks = HistoryMarks.load(path, logLength: start, fileSystem: fileSystem)
        if marks?.recorded == true { return nil }
        if start > 0, ((try? log.recordedBoard()) ?? nil) != nil { return [] }
        return [Event.boardRecord(board)]
    }

    /// After a write: the log holds the board's record; marks begin at
    /// `start` when there are none yet.
    func noteRecorded(from start: Int) {
        var marks = HistoryMarks.load(path, logLength: Int.max, fileSystem: fileSystem) ?? HistoryMarks(from: start)
        guard !marks.recorded else { return }
        marks.recorded = true
        save(marks)
    }

    private func save(_ marks: HistoryMarks) {
        var writer = AtomicFileWriter(fileSystem: fileSystem)
        writer.role = .board
        _ = try? writer.write([marks.bytes[...]], to: path, mode: mode)
    }
}
