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
