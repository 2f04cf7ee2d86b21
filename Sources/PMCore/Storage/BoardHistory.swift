/// Reading a board's history: the newest entries from the end of the event
/// log (a schema-1 board's from its file), for the board or one task, a
/// deleted one included.
extension BoardStore {
    /// Whether the history is the log alone: no board file but a log, or a
    /// schema-2 board file (found without decoding its tasks).
    private func historyIsInLog(_ target: String, log: EventLogFile) throws -> Bool {
        guard try fileSystem.status(target) != nil else { return try log.exists() }
        guard let bytes = try? fileSystem.readFile(target) else { return false }
        return BoardDecoder.schemaVersion(of: bytes) == Board.currentSchemaVersion
    }

    /// The newest `limit` history entries, newest first: from the log for a
    /// schema-2 board (reading only its end), from the file for a schema-1 one.
    /// With `task` (an id or prefix, of a current task or a deleted one), only
    /// that task's entries.
    /// - Throws: ``PMError/invalidID(_:)``, ``PMError/taskNotFound(_:)``,
    ///   ``PMError/ambiguousID(_:candidates:titles:)`` for `task`.
    public func recentHistory(limit: Int, task: String? = nil) throws -> [HistoryEvent] {
        let target = try targetPath()
        let log = eventLog(of: target)
        var inLog = try historyIsInLog(target, log: log)
        if task != nil || !inLog {
            let board = try read(target)?.board
            if let board, board.schemaVersion > Board.currentSchemaVersion { return [] }
            if !inLog, let board, board.schemaVersion < 2 {
                guard let task else { return try board.history.recentEvents(limit: limit) }
                let id = try resolveHistoric(
                    task, board: board, taskIDs: { try board.history.events().map { ($0.taskID, $0.title) } })
                return Array(try board.history.events().filter { $0.taskID == id }.reversed().prefix(limit))
            }
            if board == nil, try !log.exists() {
                if let task { _ = try TaskLookup.find(task, in: Board(id: Self.unnamedBoard)) }
                return []
            }
            inLog = true
            if let task {
                var current = board ?? Board(id: Self.unnamedBoard)
                try rollForward(&current, log: log)
                let id = try resolveHistoric(
                    task, board: current, taskIDs: { try log.readAll().events.map { ($0.task, $0.title ?? "") } })
                return try newestEntries(limit, in: log, mentioning: Array(id.rawValue.utf8)) { $0.taskID == id }
            }
        }
        return try newestEntries(limit, in: log, mentioning: nil) { _ in true }
    }

    /// A task by id or prefix: a current one, else one the history names
    /// (a deleted task keeps its history).
    private func resolveHistoric(_ text: String, board: Board, taskIDs: () throws -> [(TaskID, String)]) throws -> TaskID {
        do {
            return try TaskLookup.find(text, in: board).id
        } catch PMError.taskNotFound {
            let wanted = Array(text.lowercased().filter { $0 != "-" }.utf8)
            // Each matching task once, with the newest title the history gives it.
            var seen: [TaskID] = []
            var titles: [TaskID: String] = [:]
            for (id, title) in try taskIDs() where id.hexDigitBytes.starts(with: wanted) {
                if titles[id] == nil { seen.append(id) }
                if !title.isEmpty || titles[id] == nil { titles[id] = title }
            }
            guard seen.count == 1 else {
                if seen.isEmpty { throw PMError.taskNotFound(text) }
                throw PMError.ambiguousID(text, candidates: seen, titles: seen.map { titles[$0] ?? "" })
            }
            return seen[0]
        }
    }

    /// The newest entries in merge order, the same on every copy: only
    /// those of copies the board takes, each naming the copy's person when
    /// it names someone else (``ReplicaLedger``).
    private func newestEntries(
        _ limit: Int, in log: EventLogFile, mentioning needle: [UInt8]?, where keep: (HistoryEvent) -> Bool
    ) throws -> [HistoryEvent] {
        let size = Int((try? fileSystem.status(log.path))??.size ?? 0)
        let marks = HistoryMarks.load(HistoryMarks.path(ofLog: log.path), logLength: size, fileSystem: fileSystem)
        let ledger = try replicaLedger()
        return ledger.historyEntries(
            try log.readNewestInMergeOrder(limit, mentioning: needle, marks: marks) { event in
                ledger.takes(event.replica) && (HistoryEvent(event).map(keep) ?? false)
            })
    }

    /// Who each copy of the board is and which copies it takes, as of every
    /// event in its log: the board file's ledger with what the log holds
    /// past it (the whole log folded again when the file has none).
    public func replicaLedger() throws -> ReplicaLedger {
        let target = try targetPath()
        let log = eventLog(of: target)
        guard try log.exists() else { return ReplicaLedger() }
        let header = try index.read(board: target)?.header ?? read(target)?.board
        if let header, header.schemaVersion == Board.currentSchemaVersion, var ledger = header.log.replicas,
            header.log.order != nil || header.log.events == 0
        {
            // What the log holds past the file, taken as a fold takes it:
            // only when all of it comes after the file's last event.
            let tail = FoldedTasks.inMergeOrder(try log.read(after: header.log).events)
            if let last = header.log.order, let first = tail.first, !(last < EventOrder(first)) {
                return ReplicaLedger.of(try log.readAll().events)
            }
            for event in tail { _ = ledger.take(event) }
            return ledger
        }
        return ReplicaLedger.of(try log.readAll().events)
    }
}

/// Keeping the history's marks (``HistoryMarks``) as the log grows. A mark
/// that cannot be written costs only speed: nothing here ever fails a change.
extension BoardStore {
    func marksPath(_ log: EventLogFile) -> String { HistoryMarks.path(ofLog: log.path) }

    /// Before events from elsewhere are appended at `start..<end` (a log
    /// rewritten whole: `start` 0), after the board's last event `bound`.
    func recordMerged(_ log: EventLogFile, start: Int, end: Int, bound: EventOrder?, mode: UInt32) {
        var marks =
            start == 0
            ? HistoryMarks(from: 0)
            : HistoryMarks.load(marksPath(log), logLength: start, fileSystem: fileSystem) ?? HistoryMarks(from: start)
        marks.record(HistoryMarks.Batch(start: start, end: end, bound: start == 0 ? nil : bound))
        saveMarks(marks, of: log, mode: mode)
    }

    /// Before a log is written whole in merge order (a conversion): marks
    /// that know all of it and hold no batch.
    func marksFromStart(_ log: EventLogFile, mode: UInt32) {
        saveMarks(HistoryMarks(from: 0), of: log, mode: mode)
    }

    /// Before a write appends at `start`: the board's record, when the log
    /// does not hold it yet (searched for once, then remembered in the
    /// marks); nil when the marks already say it is there (nothing to note).
    func recordNeeded(_ log: EventLogFile, board: TaskID, at start: Int) -> [Event]? {
        let marks = HistoryMarks.load(marksPath(log), logLength: start, fileSystem: fileSystem)
        if marks?.recorded == true { return nil }
        if start > 0, ((try? log.recordedBoard()) ?? nil) != nil { return [] }
        return [Event.boardRecord(board)]
    }

    /// After a write: the log holds the board's record; marks begin at
    /// `start` when there are none yet.
    func noteRecorded(_ log: EventLogFile, from start: Int, mode: UInt32) {
        var marks = HistoryMarks.load(marksPath(log), logLength: Int.max, fileSystem: fileSystem) ?? HistoryMarks(from: start)
        guard !marks.recorded else { return }
        marks.recorded = true
        saveMarks(marks, of: log, mode: mode)
    }

    private func saveMarks(_ marks: HistoryMarks, of log: EventLogFile, mode: UInt32) {
        var writer = AtomicFileWriter(fileSystem: fileSystem)
        writer.role = .board
        _ = try? writer.write([marks.bytes[...]], to: marksPath(log), mode: mode)
    }
}
