/// board.json is a checkpoint of its log: rewritten when the log's tail past
/// it passes a bound, or at once by `pm checkpoint`.
extension BoardStore {
    /// How far board.json may stand behind its log (the tail every reader
    /// folds in): past this many events or bytes, the change that crosses it
    /// rewrites the file. Measured on a 10k board (release build): a tail of
    /// 250 events adds about 15 ms to every read, and a rewrite costs about
    /// 60 ms (ten times that at 100k). A read pays on average half the tail,
    /// a change 1/bound of a rewrite: 128 keeps both a few milliseconds at
    /// 10k and at 100k.
    public static let checkpointEvents = 128
    public static let checkpointBytes = 256 << 10

    /// Whether a board file standing at `disk` must be rewritten for a board
    /// now at `now`: its tail passed the bound, or it is not a file that can
    /// stand behind its log (missing, or of an older schema).
    static func tailPassesBound(from disk: LogPosition?, to now: LogPosition, schema: Int?) -> Bool {
        guard let disk, schema == Board.currentSchemaVersion, disk.order != nil || disk.events == 0 else { return true }
        return now.events - disk.events > checkpointEvents || now.length - disk.length > checkpointBytes
    }

    /// Rewrites board.json as the fold of its whole log now (`pm checkpoint`);
    /// a board.json lost beside its log is made again.
    /// - Returns: how many events of the log it folded in that the file did
    ///   not have; nil when there is no board at all.
    @discardableResult
    public func checkpoint() throws -> Int? {
        try withLock { lock, target in
            let log = eventLog(of: target)
            // Through the index when it still describes the file: the tasks
            // the tail does not touch are copied, checked, not decoded.
            if var indexed = index.read(board: target), indexed.header.schemaVersion == Board.currentSchemaVersion {
                var board = indexed.header
                (board.tasks, indexed.tasks) = (indexed.tasks, [])
                try rollForward(&board, log: log)
                let stood = indexed.header.log
                if indexed.file.damage == nil {
                    guard board.log != stood else { return 0 }
                    guard lock.stillHeld() else { throw PMError.locked(nil) }
                    do {
                        try writeBoard(board, to: target, mode: indexed.status.mode, copyUnread: true)
                        return max(1, board.log.events - stood.events)
                    } catch is CopiedTasks.Refused {}
                }
                // Not what the index said: the board is read whole.
                index.drop(at: target)
            }
            let current = try read(target, lazyHeads: true)
            var board: Board
            if let current {
                board = current.board
                if board.schemaVersion > Board.currentSchemaVersion {
                    throw PMError.newerSchema(path: target, found: board.schemaVersion, supported: Board.currentSchemaVersion)
                }
                // pm 0.1's format has no log to fold: the next change converts it.
                guard board.schemaVersion == Board.currentSchemaVersion else { return 0 }
            } else {
                guard try log.exists() else { return nil }
                board = Board(id: try log.recordedBoard() ?? Self.unnamedBoard)
            }
            try rollForward(&board, log: log)
            let stood = current?.board.log ?? LogPosition()
            guard current == nil || board.log != stood else { return 0 }
            guard lock.stillHeld() else { throw PMError.locked(nil) }
            try writeBoard(board, to: target, mode: current?.status.mode ?? 0o644)
            // Written: never 0, which says nothing was (a refold may count no more events).
            return max(1, board.log.events - stood.events)
        }
    }

    /// Writes `board`, just committed, as the checkpoint at `target`: best
    /// effort, for the log already holds every change. A board read through
    /// its index copies the tasks it did not change from the file, checked
    /// as they go (``CopiedTasks``); when the file is not what the index
    /// said, the board is read whole, the log folded onto it, and written.
    func writeCheckpoint(_ board: Board, throughIndex: Bool, to target: String, mode: UInt32, log: EventLogFile) {
        guard throughIndex else {
            try? writeBoard(board, to: target, mode: mode)
            return
        }
        do {
            try writeBoard(board, to: target, mode: mode, copyUnread: true)
            return
        } catch is CopiedTasks.Refused {
            index.drop(at: target)
        } catch {
            return
        }
        guard var whole = try? read(target, lazyHeads: true)?.board, (try? rollForward(&whole, log: log)) != nil else { return }
        try? writeBoard(whole, to: target, mode: mode)
    }
}
