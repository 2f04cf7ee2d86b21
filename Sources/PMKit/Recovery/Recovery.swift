import PMCore
import PMSync

/// What a session puts right before it reads or changes a board: a log put
/// back from a backup, and the copies a sync tool left beside the board
/// (RELIABILITY.md). Each is said through ``BoardSession/notice``.
extension BoardSession {
    /// A log put back from a backup while board.json stayed: the board goes
    /// back to the log, keeping what only board.json held as new changes.
    public func recoverOlderLog() {
        let now = environment.now()
        let stamp = String(Timestamp.string(from: now).filter(\.isNumber).prefix(14))
        guard store().olderLogNeedsRecovery() else { return }
        let (store, replica) = signingStore()
        // What the remote held at the last sync, as it is on this machine
        // (a folder remote, pm's clone of a git one): taken back first.
        var remote: [Event] = []
        if let state = try? syncState().load(), let text = state.remote {
            let folder: String
            switch remoteTarget(text, kind: state.remoteKind) {
            case .folder(let path): folder = path
            case .git(let url): folder = gitCache(url)
            }
            remote = Syncer.eventsOnThisMachine(folder, now: Int64(now.timeIntervalSince1970 * 1000))
        }
        guard
            let recovery = try? store.recoverOlderLog(
                replica: replica, author: environment.user, at: Timestamp.string(from: now), stamp: stamp, remote: remote,
                makeID: { self.environment.makeID() })
        else { return }
        notice(.boardChanged)
        let log = (try? store.eventLog().path) ?? environment.boardPath
        notice(.olderLogRecovered(kept: recovery.kept, log: log, copy: recovery.copy))
    }

    /// Folds in sync tools' conflicted copies found beside the board.
    public func mergeConflictedCopies() throws {
        guard try !store().conflictedCopies().isEmpty else { return }
        let (store, replica) = signingStore()
        let now = Int64(environment.now().timeIntervalSince1970 * 1000)
        for copy in try store.mergeConflictedCopies(newBoardID: environment.makeID(), replica: replica, now: now) {
            notice(.conflictedCopyMerged(path: copy.path, added: copy.added, movedAside: copy.movedAside))
        }
    }
}
