import PMCore
import PMSync

#if canImport(Glibc)
    import Glibc
#endif

/// Setting and removing the remote a board syncs with (`pm remote`).
extension BoardSession {
    /// What setting a remote did.
    public struct RemoteSet: Sendable {
        /// The remote as kept (a path made absolute).
        public var text: String
        public var target: RemoteTarget
        /// The remote it replaced.
        public var replaced: String?
        /// The folder did not exist and was made.
        public var folderCreated = false
        /// A git repository on this machine that does not exist yet.
        public var gitMissing = false
        /// The remote holds another board than this copy's (of `tasks` tasks);
        /// `beside` is where a second board could go.
        public var otherBoard: (tasks: Int, beside: String)?
    }

    /// Sets the remote this board syncs with, keeping what the copy synced
    /// with the one before (its forwarded changes are told apart).
    /// - Throws: ``SessionError/remoteLooksLikeOption(_:)``, ``SessionError/remoteFolderMissing(_:)``.
    public func setRemote(_ typed: String) throws -> RemoteSet {
        var text = typed
        // git would read it as an option (`--upload-pack=CMD`): never handed on.
        if RemoteTarget.looksLikeOption(text) { throw SessionError.remoteLooksLikeOption(text) }
        // A path means what it meant where the user typed it, never a
        // place inside pm's own files.
        if RemoteTarget.isLocalPath(text) { text = Paths.standardized(Paths.absolute(text)) }
        let remote = remoteTarget(text)
        var result = RemoteSet(text: text, target: remote)
        try prepare(remote, text: text, &result)
        let store = syncState()
        var state = try store.load()
        if let old = state.remote, old != text { result.replaced = old }
        if state.remote != text || state.remoteKind != remote.kind {
            let previous = state.remote.flatMap { $0 == text ? nil : $0 } ?? state.previousRemote
            // How far the log had reached the old remote (a remote replaced
            // before any sync with it keeps the one before it).
            let previousSynced = state.remote.flatMap { $0 == text ? nil : state.syncedEvents } ?? state.previousSyncedEvents
            // (What this copy synced as stays its own, whatever the remote.)
            let replicas = state.replicas
            state = SyncState(remote: text)
            state.remoteKind = remote.kind
            state.previousRemote = previous
            state.previousSyncedEvents = previous == nil ? nil : previousSynced
            state.replicas = replicas
        }
        try store.save(state)
        // A remote that holds another board: said now, not only at the next sync's refusal.
        if state.lastSync == nil, let board = try? self.store().load(), !board.tasks.isEmpty || board.log.events > 1,
            let theirs = boardHeld(by: remote), board.id != theirs
        {
            let beside = Paths.parent(of: (try? self.store().targetPath()) ?? environment.boardPath) + "/team/board.json"
            result.otherBoard = (board.tasks.count, beside)
        }
        return result
    }

    /// A folder must exist or be creatable in a folder that does; a git
    /// repository on this machine may come later.
    private func prepare(_ remote: RemoteTarget, text: String, _ result: inout RemoteSet) throws {
        let files = PosixFileSystem()
        let found = (try? files.status(text)) ?? nil
        switch remote {
        case .folder:
            if found == nil {
                let parent = Paths.parent(of: text)
                guard ((try? files.status(parent)) ?? nil)?.kind == .directory, mkdir(text, 0o777) == 0 else {
                    throw SessionError.remoteFolderMissing(text)
                }
                result.folderCreated = true
            } else if found?.kind != .directory {
                throw SessionError.remoteFolderMissing(text)
            }
        case .git:
            result.gitMissing = RemoteTarget.isLocalPath(text) && found == nil
        }
    }

    /// The board a remote holds, when that can be known now: a folder's
    /// description, read in place; a git remote's, fetched into pm's clone
    /// (what the first sync would fetch anyway) unless a sync is using it.
    /// Nil when it holds none yet or cannot be reached: the sync says why.
    func boardHeld(by remote: RemoteTarget) -> TaskID? {
        switch remote {
        case .folder(let path): return RemoteDescription.board(inFolder: path)
        case .git:
            guard let lock = try? SyncLock.acquire(syncState().path + ".lock", timeout: 0) else { return nil }
            defer { lock.release() }
            return (try? transport(for: remote).fetch())?.boardID
        }
    }

    /// Keeps the remote of `setting` while a watch runs: the state deleted
    /// under it (a cleanup, the whole folder) is written back, not lost.
    /// - Returns: false when the remote was removed (`pm remote remove`
    ///   leaves a state without one): the watch then ends, as asked.
    public func keepRemote(_ setting: SyncState) throws -> Bool {
        let store = syncState()
        guard let remote = setting.remote, (try? store.load())?.remote == nil else { return true }
        if ((try? PosixFileSystem().status(store.path)) ?? nil) != nil { return false }
        var again = SyncState(remote: remote)
        again.remoteKind = setting.remoteKind
        try? PosixFileSystem().createDirectories(Paths.parent(of: store.path))
        try store.save(again)
        return true
    }

    /// Forgets the remote; returns the one it was (nil: there was none).
    public func removeRemote() throws -> String? {
        let store = syncState()
        guard let text = try store.load().remote else { return nil }
        // An empty state, not none: a `pm sync --watch` running tells a
        // remote removed (it stops) from a state folder deleted (it writes
        // its remote back).
        try store.save(SyncState())
        return text
    }
}
