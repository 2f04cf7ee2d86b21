/// Loads and saves a board file safely when several people and processes
/// share it (RELIABILITY.md):
///
/// 1. an exclusive `flock` on a separate `board.json.lock` (the board itself is
///    replaced by rename, so locking it would lock a stale inode), waited for
///    a bounded time;
/// 2. under the lock: read, change, write a temp file in the same directory
///    (`O_CREAT|O_EXCL`), `fsync` it, check `close`, `rename` it over the
///    board, `fsync` the directory;
/// 3. before the rename, check the board is still the file that was read; a
///    shared folder that ignores locks makes pm start over, never overwrite.
public struct BoardStore: Sendable {
    /// The board path as given (a symlink is followed when saving).
    public let path: String
    let fileSystem: FileSystem
    /// How long to wait for another writer, in milliseconds.
    let lockTimeoutMilliseconds: Int
    let sleep: @Sendable (_ milliseconds: Int) -> Void
    /// Signs the events this copy makes (nil: they go unsigned, as from a
    /// replica made before keys, or in tests of the rules alone).
    public var signer: EventSigner?
    /// Where this copy's key would be, when it has none (for the message
    /// that says why a change cannot be made).
    public var keyPath: String?

    /// The index beside the board file.
    let index: BoardIndexFile

    /// A store for the board at `path`.
    public init(
        path: String, fileSystem: FileSystem = PosixFileSystem(), lockTimeoutMilliseconds: Int = 5000,
        sleep: @escaping @Sendable (Int) -> Void
    ) {
        self.path = path
        self.fileSystem = fileSystem
        index = BoardIndexFile(fileSystem: fileSystem)
        self.lockTimeoutMilliseconds = lockTimeoutMilliseconds
        self.sleep = sleep
    }

    /// Reads the board, with whatever the event log holds past it folded in;
    /// nil when the file does not exist (an empty board).
    public func load() throws -> Board? {
        let target = try targetPath()
        let log = eventLog(of: target)
        guard var board = try read(target, lazyHeads: true)?.board else {
            // Only the log (board.json lost, or not yet written): the log is the truth.
            guard try log.exists() else { return nil }
            var board = Board(id: try log.recordedBoard() ?? Self.unnamedBoard)
            try rollForward(&board, log: log)
            return board
        }
        try rollForward(&board, log: log)
        return board
    }

    /// Brings `board`, as ``load()`` gave it earlier, up to date with what
    /// its log gained since: only that is read and folded in (the whole log
    /// again when it does not fold in place). For a reader that keeps the
    /// board open (`pm serve`): its tasks stay decoded.
    public func catchUp(_ board: inout Board) throws {
        try rollForward(&board, log: eventLog(of: try targetPath()))
    }

    /// Runs `body` on the board for a command that reads a few of its tasks
    /// (`pm show`): through the index when it still describes the file, so
    /// that only the tasks `body` asks for are decoded; otherwise, or when a
    /// task it read was not what the index said (the index is then dropped),
    /// on the board read whole, as ``load()`` gives it (nil: no board yet).
    public func withFewTasks<Result>(_ body: (Board?) throws -> Result) throws -> Result {
        let target = try targetPath()
        if let indexed = index.read(board: target), indexed.header.schemaVersion >= 2,
            indexed.header.schemaVersion <= Board.currentSchemaVersion
        {
            var board = indexed.header
            board.tasks = indexed.tasks
            try rollForward(&board, log: eventLog(of: target))
            let result: Result?
            do {
                result = try body(board)
            } catch  where indexed.file.damage != nil {
                result = nil
            }
            if let result, indexed.file.damage == nil { return result }
            index.drop(at: target)
        }
        return try body(load())
    }

    /// The id of a board known only from its log, until a change names it.
    static let unnamedBoard = TaskID(unchecked: "00000000-0000-4000-8000-000000000000")

    /// The event log beside the board.
    public func eventLog() throws -> EventLogFile { eventLog(of: try targetPath()) }

    /// A replica id that stays the same for one machine, user and board place
    /// (a name-based UUID), so that no state file is needed to remember it.
    public static func replicaID(host: String, user: String, boardKey: String) -> TaskID {
        let first = StableHash.hex(Array("\(host)\u{0}\(user)".utf8))
        let second = StableHash.hex(Array(boardKey.utf8))
        let digits = Array(first + second)
        let text =
            String(digits[0..<8]) + "-" + String(digits[8..<12]) + "-8" + String(digits[13..<16]) + "-8"
            + String(digits[17..<20]) + "-" + String(digits[20..<32])
        return TaskID(unchecked: text)
    }

    func eventLog(of target: String) -> EventLogFile { EventLogFile(boardPath: target, fileSystem: fileSystem) }

    /// Folds into a schema-2 board the log's events past where it stands (a
    /// crash between appending and rewriting `board.json`, a writer on a
    /// folder that gave up rewriting it, or events merged from other copies).
    /// Events that come after the board's last in merge order are applied to
    /// it; any other (a colleague's older change, synced late) makes the
    /// whole log fold again, so every copy comes to the same tasks.
    func rollForward(_ board: inout Board, log: EventLogFile) throws {
        guard board.schemaVersion >= 2, board.schemaVersion <= Board.currentSchemaVersion, try log.exists() else { return }
        // A board file from before heads were kept: only the log knows them.
        // (A task not yet read through the index is tracked: only such are indexed.)
        if board.tasks.contains(where: \.isDecodedUntracked) { return try refold(&board, log: log) }
        let (events, end) = try log.read(after: board.log)
        guard let newest = events.last else { return }
        guard board.log.order != nil || board.log.events == 0 else { return try refold(&board, log: log) }
        // Moved out while folded: the array is changed in place, not copied.
        var tasks = board.tasks
        board.tasks = []
        var ledger = board.log.replicas
        guard FoldedTasks.apply(events, to: &tasks, last: board.log.order, ledger: &ledger) else {
            board.tasks = tasks
            return try refold(&board, log: log)
        }
        board.tasks = tasks
        board.log = LogPosition(events: board.log.events + events.count, length: end, newest: newest, replicas: ledger)
    }

    /// Folds the whole log again, in merge order.
    func refold(_ board: inout Board, log: EventLogFile) throws {
        let contents = try log.readAll()
        let ordered = FoldedTasks.inMergeOrder(contents.events)
        var folded = FoldedTasks()
        folded.apply(ordered)
        board.tasks = folded.ordered
        board.log = LogPosition(
            events: contents.events.count, length: contents.committedLength, newest: ordered.last, replicas: folded.ledger)
    }

    /// Runs `change` on the current board under the lock and commits it.
    ///
    /// The change's events are appended to the log and `fsync`ed — that is
    /// the commit — and `board.json` is then rewritten as their fold. A
    /// schema-1 board is converted at that moment (its history becomes the
    /// log, written whole with the change); so is a board whose log is
    /// missing (a `board.json` copied alone: its tasks become the log's first
    /// events). A missing file starts as an empty board with `newBoardID`.
    /// Nothing is written when `change` throws or changes nothing.
    /// - Parameters:
    ///   - replica: this copy's replica id, recorded on each event.
    ///   - beforeSave: runs under the lock once the change is computed, before
    ///     it is committed (for per-user state that must never lag the board,
    ///     like undo); when it throws, nothing is committed.
    ///   - committed: given the board as committed, once it is.
    /// - Returns: what `change` returned.
    public func update<Result>(
        newBoardID: TaskID, replica: TaskID, _ change: (inout Board) throws -> Result,
        beforeSave: (Board) throws -> Void = { _ in }, committed: (Board) -> Void = { _ in }
    ) throws -> Result {
        try withLock { lock, target in
            // Through the index when it still describes the file: then only
            // the tasks the change touches are read.
            var commit = try BoardCommit(store: self, lock: lock, target: target, newBoardID: newBoardID, throughIndex: true)
            try commit.bringUpToDate(replica: replica)
            let result = try change(&commit.board)
            let events = sealed(Self.events(of: commit.board, replica: replica))
            guard !events.isEmpty else { return result }
            try commit.refuseDamage()
            try admit((commit.rebuilt ?? []) + events, replica: replica, board: commit)
            try beforeSave(commit.board)
            // The board before the change, for its events to be folded into:
            // the tasks it touched put back in place (the board is not copied).
            var before = commit.board.tasks
            commit.board.tasks = []
            commit.board.history.restoreTouched(in: &before)
            let end = try commit.append(events, merged: false)
            let folded = try commit.fold(events, onto: &before, end: end, merged: false)
            commit.checkpoint(folded: folded, always: false)
            UntilExit.keep(commit.board)
            committed(commit.board)
            return result
        }
    }

    /// What this user does, every other copy accepts: the same gate for a
    /// change's events and a conversion's. (Their clock is this copy's own:
    /// no later than itself.) A copy with no key of its own, new on a board
    /// whose copies sign, is refused: every copy would set its change aside
    /// (``ReplicaLedger``).
    func admit(_ events: [Event], replica: TaskID, board commit: BoardCommit) throws {
        for event in events where event.recordedBoard == nil {
            if let problem = EventProblem.check(event, replica: replica, now: event.clock.milliseconds) {
                throw PMError.changeRefused(problem)
            }
        }
        if signer == nil, !EventSeal.isSignedReplica(replica) {
            let ledger = try commit.position.replicas ?? ReplicaLedger.of(commit.log.readAll().events)
            if ledger.hasSigned, ledger.entries[replica] == nil || !ledger.takes(replica) {
                throw PMError.cannotSign(path: keyPath ?? commit.target)
            }
        }
    }

    /// The events of the changes `board` has made since its history was
    /// emptied, each with the next tick of the board's clock.
    static func events(of board: Board, replica: TaskID) -> [Event] {
        var clock = board.log.clock
        let changes = board.history.appended.map { entry -> Event in
            let ms = Int64(Timestamp.milliseconds(of: entry.at) ?? 0)
            clock = HybridClock.tick(after: clock, now: min(max(ms, 0), HybridClock.maximumMilliseconds))
            return Event(
                change: entry, before: board.history.original(of: entry.taskID), after: board.task(entry.taskID),
                replica: replica, clock: clock ?? HybridClock(milliseconds: ms))
        }
        return changes
            + board.viewChanges.map { change in
                let ms = Int64(Timestamp.milliseconds(of: change.at) ?? 0)
                clock = HybridClock.tick(after: clock, now: min(max(ms, 0), HybridClock.maximumMilliseconds))
                return change.event(replica: replica, clock: clock ?? HybridClock(milliseconds: ms))
            }
    }

    /// `events`, each of this copy's sealed with its key.
    func sealed(_ events: [Event]) -> [Event] {
        guard let signer else { return events }
        return events.map(signer.seal)
    }

    /// The log's size in bytes (0: none), a stat.
    func logSize(_ log: EventLogFile) throws -> Int {
        do {
            return Int(try fileSystem.linkStatus(log.path)?.size ?? 0)
        } catch let error as SystemCallError {
            throw PMError.readFailed(path: log.path, error)
        }
    }

    /// Writes `board` over `target`, after reading back every task written afresh:
    /// a board pm would refuse is never written.
    /// Writes `board` as the file at `target`, and its index beside it (the
    /// next change then reads only the tasks it touches, not the new file
    /// whole).
    /// - Parameter copyUnread: tasks read through the index and unchanged
    ///   since are copied from their file, checked as they go
    ///   (``CopiedTasks``); a task there that is not what the index said
    ///   throws ``CopiedTasks/Refused`` and nothing is written.
    func writeBoard(_ board: Board, to target: String, mode: UInt32, copyUnread: Bool = false) throws {
        guard let (pieces, layout) = BoardEncoder.encodeChecked(board, copyUnread: copyUnread) else {
            throw PMError.unreadableWrite(path: target)
        }
        var written: FileStatus?
        _ = try AtomicFileWriter(fileSystem: fileSystem).write(
            producing: { emit in
                for piece in pieces {
                    switch piece {
                    case .bytes(let chunk): try emit(chunk)
                    case .copied(let tasks): try tasks.copy(to: emit)
                    }
                }
            }, to: target, mode: mode, synced: { written = $0 })
        // The header is always written afresh: it comes before any task.
        var header: [UInt8] = []
        for case .bytes(let chunk) in pieces where header.count < layout.tasksStart {
            header += chunk.prefix(layout.tasksStart - header.count)
        }
        if let written, let made = BoardIndex(written: board, layout: layout, header: header[...], status: written) {
            index.write(made, at: target, mode: mode)
        }
    }

    /// Runs `body` with the board as it is on disk (nil when missing) under
    /// the writers' lock, without saving the board (for per-user state that
    /// must not race a change, like dropping an undo step).
    public func withLockedBoard<Result>(_ body: (Board?) throws -> Result) throws -> Result {
        try withLock { _, target in try body(try read(target)?.board) }
    }

    func withLock<Result>(_ body: (BoardLock, String) throws -> Result) throws -> Result {
        let target = try targetPath()
        let directory = Self.directory(of: target)
        do {
            try fileSystem.createDirectories(directory)
        } catch let error as SystemCallError {
            throw PMError.createFailed(path: directory, error)
        }
        let lock = try BoardLock.acquire(
            target + ".lock", fileSystem: fileSystem, timeoutMilliseconds: lockTimeoutMilliseconds, sleep: sleep)
        defer { lock.release() }
        AtomicFileWriter(fileSystem: fileSystem).removeStaleTemporaryFiles(of: target, now: lock.takenAtNanoseconds)
        return try body(lock, target)
    }

    // MARK: Reading

    /// - Parameter lazyHeads: for a board only shown (``BoardDecoder/decode(_:path:lazyHeads:)``).
    func read(_ target: String, lazyHeads: Bool = false) throws -> (board: Board, status: FileStatus)? {
        let status: FileStatus?
        do {
            status = try fileSystem.status(target)
        } catch let error as SystemCallError {
            throw PMError.readFailed(path: target, error)
        }
        guard let status else { return nil }
        guard status.kind == .regular else { throw PMError.notARegularFile(path: target) }
        let bytes: [UInt8]
        do {
            bytes = try fileSystem.readFile(target)
        } catch let error as SystemCallError {
            if error.code == 21 { throw PMError.notARegularFile(path: target) }  // EISDIR
            throw PMError.readFailed(path: target, error)
        }
        return (try BoardDecoder.decode(bytes, path: target, lazyHeads: lazyHeads), status)
    }

    /// The file a save replaces: the board path, or what a symlink there points to.
    public func targetPath() throws -> String {
        var current = path
        for _ in 0..<32 {
            guard let link = fileSystem.symbolicLinkTarget(current) else { return current }
            current = link.hasPrefix("/") ? link : Self.directory(of: current) + "/" + link
        }
        throw PMError.readFailed(path: path, SystemCallError(call: "readlink", code: 40))  // ELOOP
    }

    /// The directory part of a path (`.` for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func fileName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}

extension String {
    /// Without spaces, tabs and newlines at either end. By bytes: reversed
    /// and dropped views of a `String` are generic types that the runtime
    /// builds by name the first time, at more cost than a command's parse.
    func trimmingASCIIWhitespace() -> String {
        let bytes = utf8
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
