import PMCore
import PMSync

/// Sync as one person's copy does it: the remote they set, the transport it
/// takes, and joining the remote's board (DESIGN.md §9–10).
extension BoardSession {
    /// What `text` names as a remote: a git repository or a folder.
    public func remoteTarget(_ text: String, kind: String? = nil) -> RemoteTarget {
        let files = PosixFileSystem()
        return RemoteTarget(
            text, kind: kind,
            isGitRepository: { path in
                func exists(_ name: String) -> Bool { ((try? files.status(path + "/" + name)) ?? nil) != nil }
                return exists(".git") || (exists("HEAD") && exists("objects"))
            }, isDirectory: { path in ((try? files.status(path)) ?? nil)?.kind == .directory })
    }

    /// pm's clone of a git remote, in this user's state folder.
    func gitCache(_ url: String) -> String {
        SyncStateStore.gitCache(
            stateDirectory: environment.stateDirectory, boardKey: boardKey(), url: url, user: environment.user)
    }

    /// How this copy reaches `target`.
    public func transport(for target: RemoteTarget) -> Transport {
        switch target {
        case .folder(let path): return FolderTransport(path: path)
        case .git(let url):
            return GitTransport(url: url, cache: gitCache(url), environment: settings.processVariables, author: environment.user)
        }
    }

    /// The sync of this copy with `target`; `signing`: it may change the
    /// board (a sync, not a look at what waits), so its key is made if needed.
    public func syncer(_ target: RemoteTarget, signing: Bool = true) -> Syncer {
        let env = environment
        let (store, replica) = signing ? signingStore() : (store(), replica)
        return Syncer(
            store: store, state: syncState(), transport: transport(for: target), replica: replica,
            former: Array(ownReplicas.subtracting([replica])).sorted(),
            now: {
                let date = env.now()
                return (Int64(date.timeIntervalSince1970 * 1000), Timestamp.string(from: date))
            }, makeID: { env.makeID() })
    }

    /// The remote set for this board.
    /// - Throws: ``SessionError/noRemote`` when none is.
    public func requireRemote() throws -> RemoteTarget {
        let state = try syncState().load()
        guard let text = state.remote else { throw SessionError.noRemote }
        return remoteTarget(text, kind: state.remoteKind)
    }

    /// What a sync did, with what a front end says around it.
    public struct SyncOutcome: Sendable {
        public var report: Syncer.Report
        /// The remote synced with before the current one (after `pm remote set`).
        public var previousRemote: String?
        /// `join`: the tasks this copy brought to the remote's board.
        public var joined: Int?
    }

    /// Syncs with `target`; with `join`, a remote holding another board
    /// makes this copy that board's (its undo history going with it).
    /// - Throws: ``SessionError/offline(target:waiting:)`` when the remote
    ///   does not answer, ``SessionError/otherBoard(target:tasks:synced:beside:)``
    ///   when it holds another board (without `join`), else ``SyncError``.
    public func sync(_ target: RemoteTarget, join: Bool = false) throws -> SyncOutcome {
        let previous = (try? syncState().load())?.previousRemote
        var joined: Int?
        do {
            let report: Syncer.Report
            do {
                report = try syncer(target).sync()
            } catch SyncError.otherBoard(let remote, _) where join {
                joined = try self.join(remote)
                report = try syncer(target).sync()
            }
            if report.received > 0 { notice(.boardChanged) }
            return SyncOutcome(report: report, previousRemote: previous, joined: joined)
        } catch SyncError.unreachable {
            throw SessionError.offline(target: target.description, waiting: (try? syncer(target, signing: false).waiting()) ?? 0)
        } catch SyncError.otherBoard {
            // Named by the remote, with the two ways on.
            let tasks = (try? store().load())?.tasks.count ?? 0
            let synced = (try? syncState().load().lastSync) != nil
            let beside = Paths.parent(of: (try? store().targetPath()) ?? environment.boardPath) + "/team/board.json"
            throw SessionError.otherBoard(target: target.description, tasks: tasks, synced: synced, beside: beside)
        } catch let error as SyncError where error.isNamedFailure {
            throw SessionError.syncFailed(target: target.description, reason: error)
        }
    }

    /// Makes this board the remote's board `id` (`pm sync --join`), its
    /// undo history going with it. Returns how many tasks it brings.
    func join(_ id: TaskID) throws -> Int {
        let tasks = try store().load()?.tasks.count ?? 0
        guard let old = try store().adopt(id), old != id else { return tasks }
        let from = undoStore(boardID: old)
        let to = undoStore(boardID: id)
        let files = PosixFileSystem()
        if ((try? files.linkStatus(to.path)) ?? nil) == nil { try? files.rename(from.path, to: to.path) }
        return tasks
    }

    /// What merging another copy's file did (`pm merge FILE`).
    public struct MergeOutcome: Sendable {
        /// Changes new here.
        public var added: Int
        /// Lines left out as unreadable, and the first of them.
        public var skippedLines: Int
        public var firstSkippedLine: Int?
        /// The file stopped at a line longer than any event.
        public var stoppedAtLongLine: Bool
        /// Read no further than this many bytes (the budget ran out).
        public var cutAfterBytes: Int?
    }

    /// Folds another copy of this board (its board file or log) into it;
    /// `budget` is what all the files of one merge may still read.
    public func merge(file: String, budget: inout Int) throws -> MergeOutcome {
        var gate = EventGate(now: Int64(environment.now().timeIntervalSince1970 * 1000))
        var copy = try OtherCopy.read(file, budget: &budget)
        copy.quarantine { gate.admit($0, replica: nil) }
        let (store, replica) = signingStore()
        let added = try store.merge(
            copy.events, boardID: copy.boardID, newBoardID: environment.makeID(), replica: replica, source: file)
        if added > 0 { notice(.boardChanged) }
        return MergeOutcome(
            added: added, skippedLines: copy.skippedLines, firstSkippedLine: copy.firstSkippedLine,
            stoppedAtLongLine: copy.stoppedAtLongLine, cutAfterBytes: copy.cutAfterBytes)
    }

    /// The sync state when a remote is set, and how many changes wait to be sent.
    public func syncWaiting() -> (state: SyncState, waiting: Int)? {
        guard let state = try? syncState().load(), let remote = state.remote else { return nil }
        return (state, (try? syncer(remoteTarget(remote, kind: state.remoteKind), signing: false).waiting()) ?? 0)
    }
}

extension SyncError {
    /// A failure with a message of its own (a busy sync, a remote that is
    /// not pm's, no access, no space, pm's own files): said with the remote's name.
    var isNamedFailure: Bool {
        switch self {
        case .badRemote, .busy, .local, .permission, .diskFull: return true
        case .unreachable, .rejected, .otherBoard: return false
        }
    }
}
