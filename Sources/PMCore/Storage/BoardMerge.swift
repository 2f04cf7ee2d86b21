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
            var commit = try BoardCommit(
                store: self, lock: lock, target: target, newBoardID: boardID ?? newBoardID, throughIndex: false)
            // Only this copy writes its board's record.
            let incoming = incoming.filter { $0.kind != .other(Event.boardKind) }
            let adopted = try adopt(boardID, into: &commit)
            try commit.bringUpToDate(replica: replica)
            var index =
                try commit.rebuilt.map {
                    EventLogFile.Index(ids: Set($0.map(\.id)), events: $0.count, committedLength: commit.board.log.length)
                } ?? commit.log.index()
            // A bare log names no board: it is a copy of this one only if it
            // shares a change with it (a new board takes anything).
            if let source, boardID == nil, !index.ids.isEmpty, !incoming.isEmpty,
                !incoming.contains(where: { index.ids.contains($0.id) })
            {
                throw PMError.notThisBoard(path: source)
            }
            let fresh = FoldedTasks.inMergeOrder(incoming.filter { index.ids.insert($0.id).inserted })
            var result = MergeResult(
                added: fresh.count, boardID: commit.board.id, logEvents: index.events, logLength: index.committedLength)
            guard !fresh.isEmpty || commit.rebuilt != nil else {
                // The board's id is kept from the first sync on, even before any change.
                if adopted { try writeBoard(commit.board, to: target, mode: commit.mode) }
                return result
            }
            var tasks = commit.board.tasks
            commit.board.tasks = []
            let end = try commit.append(fresh, merged: true)
            let folded = try commit.fold(fresh, onto: &tasks, end: end, merged: true)
            commit.checkpoint(folded: folded, always: true)
            (result.logEvents, result.logLength) = (commit.board.log.events, end)
            result.setAside = Self.setAside(fresh, by: commit.board.log.replicas)
            return result
        }
    }

    /// A board with nothing in it yet (no task, no change) takes the id of
    /// the board merged into it: there is nothing to keep apart.
    /// - Returns: whether the board is new here (its file must be written
    ///   for its id to be kept, even with nothing to merge).
    /// - Throws: ``PMError/otherBoard(path:found:expected:)`` when the board
    ///   has something in it and another id.
    private func adopt(_ boardID: TaskID?, into commit: inout BoardCommit) throws -> Bool {
        var adopted = try commit.file == nil && !commit.log.exists()
        if let boardID, commit.file != nil || commit.recordedID != nil, commit.board.id != boardID {
            guard try commit.board.tasks.isEmpty && logSize(commit.log) == 0 else {
                throw PMError.otherBoard(path: commit.target, found: boardID, expected: commit.board.id)
            }
            commit.board.id = boardID
            adopted = true
        }
        return adopted
    }
}
