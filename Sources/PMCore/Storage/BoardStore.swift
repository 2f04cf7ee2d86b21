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

    /// A store for the board at `path`.
    public init(
        path: String, fileSystem: FileSystem = PosixFileSystem(), lockTimeoutMilliseconds: Int = 5000,
        sleep: @escaping @Sendable (Int) -> Void
    ) {
        self.path = path
        self.fileSystem = fileSystem
        self.lockTimeoutMilliseconds = lockTimeoutMilliseconds
        self.sleep = sleep
    }

    /// Reads the board; nil when the file does not exist (an empty board).
    public func load() throws -> Board? {
        try read(targetPath())?.board
    }

    /// Runs `change` on the current board under the lock and saves the result.
    ///
    /// A missing file starts as an empty board with `newBoardID`. Nothing is
    /// written when `change` throws.
    /// - Returns: what `change` returned.
    /// - Parameter beforeSave: runs under the lock once the new board is
    ///   computed, before it replaces the old one (for per-user state that must
    ///   never lag the board, like undo); when it throws, the board is not saved.
    public func update<Result>(
        newBoardID: TaskID, _ change: (inout Board) throws -> Result, beforeSave: (Board) throws -> Void = { _ in }
    ) throws -> Result {
        try withLock { lock, target in
            for _ in 0..<3 {
                let current = try read(target)
                var board = current?.board ?? Board(id: newBoardID)
                if board.schemaVersion > Board.currentSchemaVersion {
                    throw PMError.newerSchema(path: target, found: board.schemaVersion, supported: Board.currentSchemaVersion)
                }
                let result = try change(&board)
                // Counts saves; at its limit it stays there rather than trap.
                if board.revision < Int.max { board.revision += 1 }
                try beforeSave(board)
                // Before the rename, the board must still be the file that was read
                // and this writer must still own it: a shared folder that ignores
                // locks makes pm start over, never overwrite.
                let written = try AtomicFileWriter(fileSystem: fileSystem).write(
                    BoardEncoder.encodeChunks(board), to: target, mode: current?.status.mode ?? 0o644
                ) {
                    try fileSystem.status(target) == current?.status && lock.stillHeld()
                }
                if written { return result }
            }
            throw PMError.concurrentModification(path: target)
        }
    }

    /// Runs `body` with the board as it is on disk (nil when missing) under
    /// the writers' lock, without saving the board (for per-user state that
    /// must not race a change, like dropping an undo step).
    public func withLockedBoard<Result>(_ body: (Board?) throws -> Result) throws -> Result {
        try withLock { _, target in try body(try read(target)?.board) }
    }

    private func withLock<Result>(_ body: (BoardLock, String) throws -> Result) throws -> Result {
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

    private func read(_ target: String) throws -> (board: Board, status: FileStatus)? {
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
        return (try BoardDecoder.decode(bytes, path: target), status)
    }

    /// The file a save replaces: the board path, or what a symlink there points to.
    func targetPath() throws -> String {
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
    func trimmingASCIIWhitespace() -> String {
        String(
            self.drop { $0 == " " || $0 == "\n" || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\n" || $0 == "\t" }
                .reversed())
    }
}
