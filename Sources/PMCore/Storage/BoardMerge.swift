/// Merging other copies' events into this board (a sync, `pm merge`, a
/// conflicted copy found beside it), under the board's lock.
extension BoardStore {
    /// Folds events from other copies of this board (a remote, a colleague's
    /// file) into it under the lock: those the log does not hold yet are
    /// appended (and `fsync`ed), and the board is folded again by the merge
    /// rules, so that every copy with the same events has the same board.
    /// - Parameters:
    ///   - boardID: the id of the board the events belong to, when known: a
    ///     board that does not exist yet takes it; one with another id refuses.
    ///   - source: the file a bare log came from: it must share a change with this board.
    /// - Returns: how many events were new here.
    /// - Throws: ``PMError/otherBoard(path:found:expected:)`` when `boardID` is
    ///   another board's, ``PMError/notThisBoard(path:)`` for another board's log.
    @discardableResult
    public func merge(
        _ incoming: [Event], boardID: TaskID?, newBoardID: TaskID, replica: TaskID, source: String? = nil
    ) throws -> Int {
        try mergeDetailed(incoming, boardID: boardID, newBoardID: newBoardID, replica: replica, source: source).added
    }

    /// What a merge did and what sync needs next.
    public struct MergeResult: Sendable {
        /// Events new here.
        public var added: Int
        /// The board's id (taken from `boardID` by a new board).
        public var boardID: TaskID
        /// The log's committed extent afterwards.
        public var logEvents: Int
        public var logLength: Int
        /// Of the events new here, those of copies the board does not take
        /// (``ReplicaLedger``), by copy: the name they gave, and how many.
        public var setAside: [(by: String, count: Int)] = []
    }

    /// Of `events`, those whose copy `ledger` sets aside, by copy.
    static func setAside(_ events: [Event], by ledger: ReplicaLedger?) -> [(by: String, count: Int)] {
        guard let ledger else { return [] }
        var counts: [TaskID: (by: String, count: Int)] = [:]
        for event in events where !ledger.takes(event.replica) {
            counts[event.replica, default: (event.author, 0)].count += 1
        }
        return counts.sorted { $0.key < $1.key }.map(\.value)
    }

    /// ``merge(_:boardID:newBoardID:replica:source:)``, with what sync needs.
    /// The log is indexed, not decoded (only its ids are read), and is
    /// folded whole again only when an event comes before the board's last.
    public func mergeDetailed(
        _ incoming: [Event], boardID: TaskID?, newBoardID: TaskID, replica: TaskID, source: String? = nil
    ) throws -> MergeResult {
        try withLock { lock, target in
            let log = eventLog(of: target)
            let current = try read(target)
            // A lost board file is the board its log records.
            let recorded = try current == nil && log.exists() ? log.recordedBoard() : nil
            var board = current?.board ?? Board(id: recorded ?? boardID ?? newBoardID)
            if board.schemaVersion > Board.currentSchemaVersion {
                throw PMError.newerSchema(path: target, found: board.schemaVersion, supported: Board.currentSchemaVersion)
            }
            // Only this copy writes its board's record.
            let incoming = incoming.filter { $0.kind != .other(Event.boardKind) }
            // A board with nothing in it yet (no task, no change) takes the
            // other's id: there is nothing to keep apart.
            let blank = try board.tasks.isEmpty && logSize(log) == 0
            var adopted = try current == nil && !log.exists()
            if let boardID, current != nil || recorded != nil, board.id != boardID {
                guard blank else { throw PMError.otherBoard(path: target, found: boardID, expected: board.id) }
                board.id = boardID
                adopted = true
            }
            var rebuilt: [Event]?
            var index: EventLogFile.Index
            if current == nil, try log.exists() {
                index = try log.index()
            } else if try board.schemaVersion < 2 || (current != nil && !log.exists()) {
                let events = try convert(&board, replica: replica)
                rebuilt = events
                index = EventLogFile.Index(
                    ids: Set(events.map(\.id)), events: events.count,
                    committedLength: board.log.length)
            } else {
                try rollForward(&board, log: log)
                index = try log.index()
            }
            // A bare log names no board: it is a copy of this one only if it
            // shares a change with it (a new board takes anything).
            if let source, boardID == nil, !index.ids.isEmpty, !incoming.isEmpty,
                !incoming.contains(where: { index.ids.contains($0.id) })
            {
                throw PMError.notThisBoard(path: source)
            }
            let fresh = FoldedTasks.inMergeOrder(incoming.filter { index.ids.insert($0.id).inserted })
            var result = MergeResult(
                added: fresh.count, boardID: board.id, logEvents: index.events,
                logLength: index.committedLength)
            guard !fresh.isEmpty || rebuilt != nil else {
                // The board's id is kept from the first sync on, even before any change.
                if adopted { try writeBoard(board, to: target, mode: current?.status.mode ?? 0o644) }
                return result
            }
            let end: Int
            var record: [Event] = []
            var note = true
            let mode = current?.status.mode ?? 0o644
            if let rebuilt {
                let bytes = (rebuilt + fresh).flatMap(EventCodec.line)
                recordMerged(log, start: 0, end: bytes.count, bound: nil, mode: mode)
                _ = try AtomicFileWriter(fileSystem: fileSystem).write([bytes[...]], to: log.path, mode: 0o644)
                end = bytes.count
            } else {
                let start = index.committedLength
                let needed = recordNeeded(log, board: board.id, at: start)
                record = needed ?? []
                note = needed != nil
                let length = (record + fresh).reduce(0) { $0 + EventCodec.line($1).count }
                recordMerged(log, start: start, end: start + length, bound: board.log.order, mode: mode)
                if current == nil { try writeBoard(Board(id: board.id), to: target, mode: 0o644) }
                end = try log.append(record + fresh)
            }
            if note { noteRecorded(log, from: index.committedLength, mode: mode) }
            // Committed. Fresh events after everything the board holds fold in
            // place; any earlier one makes the whole log fold again.
            var tasks = board.tasks
            var newest = fresh.last ?? rebuilt.flatMap { FoldedTasks.inMergeOrder($0).last }
            let inPlace = board.log.order != nil || index.events == 0
            var ledger = board.log.replicas
            if !inPlace || !FoldedTasks.apply(fresh, to: &tasks, last: board.log.order, ledger: &ledger) {
                let all = FoldedTasks.inMergeOrder((rebuilt ?? []) + (rebuilt == nil ? try log.readAll().events : fresh))
                var folded = FoldedTasks()
                folded.apply(all)
                tasks = folded.ordered
                newest = all.last
                ledger = folded.ledger
            }
            board.tasks = tasks
            result.logEvents = index.events + record.count + fresh.count
            result.logLength = end
            result.setAside = Self.setAside(fresh, by: ledger)
            board.log = LogPosition(events: result.logEvents, length: end, newest: newest, replicas: ledger)
            board.history = HistoryLog()
            if lock.stillHeld() { try? writeBoard(board, to: target, mode: current?.status.mode ?? 0o644) }
            return result
        }
    }
}
