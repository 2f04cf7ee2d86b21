import FoundationEssentials
import PMCore
import PMSync

/// `pm status`: where the board is, what it holds, where it syncs.
extension BoardSession {
    public struct Status {
        /// The board's file (its link resolved).
        public var path: String
        public var board: Board
        /// The sync settings; `target` the remote set, if any, and whether it answers now.
        public var sync: SyncState
        public var target: RemoteTarget?
        public var reachable: Bool?
        /// Changes here the remote has not had.
        public var waiting: Int

        /// How many tasks each column holds, TODO first.
        public var counts: [Int] { TaskState.allCases.map { state in board.tasks.filter { $0.state == state }.count } }
        public var conflicted: [BoardTask] { board.tasks.filter { !$0.conflicts.isEmpty } }
        public func overdue(today: CivilDate, now: Date? = nil) -> Int {
            board.tasks.filter { $0.isOverdue(today: today, now: now) }.count
        }
    }

    /// The board's state, asking the remote (if any) whether it answers.
    public func status() throws -> Status {
        try mergeConflictedCopies()
        let board = try loadBoard()
        let state = try syncState().load()
        let target = state.remote.map { remoteTarget($0, kind: state.remoteKind) }
        let reachable = target.map { transport(for: $0).reachable() }
        let waiting = try target.map { try syncer($0, signing: false).waiting(network: reachable == true) } ?? 0
        let path = (try? store().targetPath()) ?? environment.boardPath
        return Status(path: path, board: board, sync: state, target: target, reachable: reachable, waiting: waiting)
    }
}
