import PMCore
import PMSync

#if canImport(Glibc)
    import Glibc
#endif

/// One board, one person: the application layer every front end calls
/// (STYLE.md). A command, `pm board` and the web board each make a session,
/// call its use cases (``add(title:body:due:assignees:)``, ``move(_:to:)``,
/// ``undo()``, ``sync(_:)``, …) and render the typed results they return;
/// no text is made here. The session owns what one person's copy of a
/// board needs around the store: the undo history, the signing key, the
/// sync state, the news mark, and the hooks a front end gives it.
public final class BoardSession: @unchecked Sendable {
    /// The clock, ids, zone, user and paths (PMCore's injected world).
    public let environment: PMEnvironment
    public let settings: Settings
    /// What the session did besides the answer of a use case (a new board, a
    /// log taken back, a sync tool's copy merged): the front end says it.
    public var notice: (SessionNotice) -> Void = { _ in }
    /// Called with the board after every change saved here (the desktop
    /// reminders withdraw what it made stale). Never fails the change.
    public var afterChange: (Board) -> Void = { _ in }

    /// What the process gave the session besides ``PMEnvironment``.
    public struct Settings: Sendable {
        /// How long to wait for another writer's lock (`PM_LOCK_TIMEOUT`).
        public var lockTimeoutMilliseconds = 5000
        /// The board was named by `--board` (a typo there must not pass silently).
        public var boardFromOption = false
        /// When reminders fire (`PM_REMIND_AT`).
        public var reminders = ReminderSchedule()
        /// The variables a git remote's command runs with (its credentials, `GIT_*`).
        public var processVariables: [String: String] = [:]
        /// Standard input, for an import of `-`.
        public var standardInput: Int32 = 0
        /// Seconds on a clock that only moves forward, for intervals (a
        /// watch's next sync): never the wall clock, which `PM_NOW` fixes
        /// and a clock change moves.
        public var monotonicSeconds: @Sendable () -> Double = {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }

        public init() {}
    }

    public init(environment: PMEnvironment, settings: Settings = Settings()) {
        self.environment = environment
        self.settings = settings
    }

    /// The time a change is stamped with.
    var now: String { Timestamp.string(from: environment.now()) }

    /// The store for this session's board.
    public func store() -> BoardStore {
        BoardStore(
            path: environment.boardPath, lockTimeoutMilliseconds: settings.lockTimeoutMilliseconds,
            sleep: { milliseconds in usleep(useconds_t(milliseconds * 1000)) })
    }

    /// Whether the board's file exists (a link to nothing counts as existing: pm refuses it later).
    public func boardFileExists() -> Bool {
        var info = stat()
        return lstat(environment.boardPath, &info) == 0
    }

    /// Where the board really is (symlinks and `..` resolved), so that two
    /// copies of one board do not share per-user state.
    public func boardKey() -> String {
        let path = environment.boardPath
        if let real = Self.realPath(path) { return real }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        if let real = Self.realPath(directory.isEmpty ? "/" : directory) { return real + "/" + name }
        return path
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Reads the board (an empty one when the file does not exist yet; nothing is created).
    public func loadBoard() throws -> Board {
        if let board = try store().load() {
            UntilExit.keep(board)
            return board
        }
        return emptyBoard()
    }

    /// The board shown when there is none yet (nothing is created).
    public func emptyBoard() -> Board {
        // `--board` naming nothing: said, in case it is a typo.
        if settings.boardFromOption { notice(.noBoardYet(path: environment.boardPath)) }
        return Board(id: environment.makeID())
    }

    /// This machine's, this user's replica of the board: the one its key
    /// makes, or (no key yet) the name-based id replicas had before keys.
    /// Reading never makes a key.
    public var replica: TaskID { keyStore().existing()?.replica ?? formerReplica }

    /// The replicas this user's copy of the board writes as: its signing
    /// key's and the one before keys. What they made is no news here.
    public var ownReplicas: Set<TaskID> {
        let synced = ((try? syncState().load())?.replicas ?? []).compactMap(TaskID.init)
        return Set([replica, formerReplica] + synced)
    }

    /// The name-based id this copy had before it signed its events: what it
    /// made under it is still its own to publish.
    public var formerReplica: TaskID {
        BoardStore.replicaID(host: PosixFileSystem().hostName, user: environment.user, boardKey: boardKey())
    }

    /// Where this copy's signing key is kept.
    public func keyStore() -> ReplicaKeyStore {
        ReplicaKeyStore(
            stateDirectory: environment.stateDirectory, host: PosixFileSystem().hostName, boardKey: boardKey(),
            user: environment.user)
    }

    /// The store, signing with this copy's key (made now if it has none),
    /// and the replica its events claim.
    public func signingStore() -> (store: BoardStore, replica: TaskID) {
        var store = store()
        let keys = keyStore()
        store.signer = keys.signer()
        if store.signer == nil { store.keyPath = keys.path }
        return (store, store.signer?.replica ?? formerReplica)
    }

    /// This user's undo store for `board` at this session's path.
    public func undoStore(for board: Board) -> UndoStore {
        undoStore(boardID: board.id)
    }

    func undoStore(boardID: TaskID) -> UndoStore {
        UndoStore(stateDirectory: environment.stateDirectory, boardID: boardID, boardKey: boardKey(), user: environment.user)
    }

    /// This user's sync settings for the board.
    public func syncState() -> SyncStateStore {
        SyncStateStore(stateDirectory: environment.stateDirectory, boardKey: boardKey(), user: environment.user)
    }

    /// Where this reader's `pm news` mark for `boardID` is kept.
    public func newsMarkPath(boardID: TaskID) -> String {
        NewsMark.path(stateDirectory: environment.stateDirectory, boardID: boardID, user: environment.user)
    }

    /// The tasks the reader is reminded of: theirs and the unassigned ones.
    public func remindable(_ tasks: [BoardTask]) -> [BoardTask] {
        let filter = TaskFilter.remindersFor(environment.user)
        let today = environment.today
        return tasks.filter { filter.admits($0, today: today, now: environment.now()) }
    }
}

/// What a session did besides a use case's answer, for the front end to say.
public enum SessionNotice: Sendable, Equatable {
    /// `--board` names no board yet (in case it is a typo).
    case noBoardYet(path: String)
    /// The board's file was made by this change.
    case newBoard(path: String)
    /// The board changed on disk (a script retrying must not repeat it).
    case boardChanged
    /// A log put back from a backup: the board went back to it, keeping
    /// `kept` changes only board.json held; the board's file was kept at `copy`.
    case olderLogRecovered(kept: Int, log: String, copy: String)
    /// A sync tool's conflicted copy at `path` was folded in (`added`
    /// events); `movedAside`: the copy was moved out of the way.
    case conflictedCopyMerged(path: String, added: Int, movedAside: Bool)
}
