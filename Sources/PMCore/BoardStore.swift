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
    /// - Parameter afterSave: runs once the new board is in place, still under
    ///   the lock (for per-user state that must follow the board, like undo).
    public func update<Result>(
        newBoardID: TaskID, _ change: (inout Board) throws -> Result, afterSave: (Board) throws -> Void = { _ in }
    ) throws -> Result {
        let target = try targetPath()
        let directory = Self.directory(of: target)
        do {
            try fileSystem.createDirectories(directory)
        } catch let error as SystemCallError {
            throw PMError.createFailed(path: directory, error)
        }
        let lock = try acquireLock(target + ".lock")
        defer { try? fileSystem.close(lock) }
        let writer = AtomicFileWriter(fileSystem: fileSystem)
        writer.removeStaleTemporaryFiles(of: target)
        for _ in 0..<3 {
            let current = try read(target)
            var board = current?.board ?? Board(id: newBoardID)
            if board.schemaVersion > Board.currentSchemaVersion {
                throw PMError.newerSchema(path: target, found: board.schemaVersion, supported: Board.currentSchemaVersion)
            }
            let result = try change(&board)
            board.revision += 1
            // Before the rename, the board must still be the file that was read:
            // a shared folder that ignores locks makes pm start over, never overwrite.
            let written = try writer.write(BoardEncoder.encodeChunks(board), to: target, mode: current?.status.mode ?? 0o644) {
                try fileSystem.status(target) == current?.status
            }
            if written {
                try afterSave(board)
                return result
            }
        }
        throw PMError.concurrentModification(path: target)
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

    // MARK: Locking

    private func acquireLock(_ lockPath: String) throws -> Int32 {
        let descriptor: Int32
        do {
            descriptor = try fileSystem.openLockFile(lockPath)
        } catch let error as SystemCallError {
            throw PMError.createFailed(path: lockPath, error)
        }
        var waited = 0
        let interval = 5
        while true {
            let locked: Bool
            do {
                locked = try fileSystem.tryLock(descriptor)
            } catch let error as SystemCallError {
                try? fileSystem.close(descriptor)
                throw PMError.saveFailed(path: lockPath, error)
            }
            if locked { break }
            if waited >= lockTimeoutMilliseconds {
                let holder = String(decoding: fileSystem.readDescriptor(descriptor, limit: 32), as: UTF8.self)
                try? fileSystem.close(descriptor)
                throw PMError.locked(pid: Int32(holder.trimmingASCIIWhitespace()))
            }
            sleep(interval)
            waited += interval
        }
        // Tell a waiting pm who holds the lock; not needed for correctness.
        try? fileSystem.overwrite(descriptor, with: Array("\(fileSystem.processID)\n".utf8))
        return descriptor
    }
}

extension String {
    func trimmingASCIIWhitespace() -> String {
        String(
            self.drop { $0 == " " || $0 == "\n" || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\n" || $0 == "\t" }
                .reversed())
    }
}
