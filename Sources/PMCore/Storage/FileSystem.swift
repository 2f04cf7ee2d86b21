/// What a path is, and enough of its identity to notice a replacement.
public struct FileStatus: Equatable, Sendable {
    public enum Kind: Sendable { case regular, directory, other }
    public var kind: Kind
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modifiedNanoseconds: Int64
    public var mode: UInt32
    /// How many names the file has: a lock or state file with more than one
    /// may be a hard link someone made to another file of the user's.
    public var links: UInt64

    public init(
        kind: Kind, device: UInt64, inode: UInt64, size: Int64, modifiedNanoseconds: Int64, mode: UInt32, links: UInt64 = 1
    ) {
        self.kind = kind
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
        self.mode = mode
        self.links = links
    }
}

/// The file-system calls the board store makes: a seam, so that tests can make
/// any one of them fail (ENOSPC, EIO, EACCES…) and check the board survives.
///
/// Every method throws ``SystemCallError`` with the call's `errno`.
public protocol FileSystem: Sendable {
    /// The status of `path` (following symlinks), or nil when it does not exist.
    func status(_ path: String) throws -> FileStatus?
    /// The target of a symbolic link, or nil when `path` is not one.
    func symbolicLinkTarget(_ path: String) -> String?
    /// The status of `path` itself, not following a symlink; nil when it does not exist.
    func linkStatus(_ path: String) throws -> FileStatus?
    /// The whole content of a regular file.
    func readFile(_ path: String) throws -> [UInt8]
    /// The whole content of a regular file that is not a symlink: a symlink
    /// fails with `ELOOP`, anything else not regular with `EISDIR`.
    func readFileNoFollow(_ path: String) throws -> [UInt8]
    /// Creates a directory and its missing parents.
    func createDirectories(_ path: String) throws
    /// Opens (creating) a lock file without following a symlink (`ELOOP`);
    /// returns its descriptor.
    func openLockFile(_ path: String) throws -> Int32
    /// The status of an open file.
    func descriptorStatus(_ descriptor: Int32) throws -> FileStatus
    /// Tries to take an exclusive lock without waiting; false when another holds it.
    func tryLock(_ descriptor: Int32) throws -> Bool
    /// Replaces the content of an open file with `bytes` (used for the lock holder's pid).
    func overwrite(_ descriptor: Int32, with bytes: [UInt8]) throws
    /// Reads an open file from its start (at most `limit` bytes).
    func readDescriptor(_ descriptor: Int32, limit: Int) -> [UInt8]
    /// Creates a new file that must not exist yet, with `mode`; returns its descriptor.
    func createExclusive(_ path: String, mode: UInt32) throws -> Int32
    /// Writes all of `bytes`, looping on short writes and EINTR.
    func write(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>) throws
    /// Flushes a file to stable storage.
    func sync(_ descriptor: Int32) throws
    /// Closes a descriptor, reporting a failed close (which can mean lost data).
    func close(_ descriptor: Int32) throws
    /// Atomically replaces `destination` with `source`.
    func rename(_ source: String, to destination: String) throws
    /// Moves `source` to `name` inside `directory`, which must be a real
    /// directory (a link there is refused, never followed), and never
    /// replaces what is there (EEXIST).
    func moveNoReplace(_ source: String, intoDirectory directory: String, name: String) throws
    /// Flushes a directory's entries (after a rename).
    func syncDirectory(_ path: String) throws
    /// Removes a file; errors are ignored by callers that only clean up.
    func remove(_ path: String) throws
    /// The names in a directory.
    func contentsOfDirectory(_ path: String) throws -> [String]
    /// This process's id, written into the lock file.
    var processID: Int32 { get }
    /// This machine's name, for telling its processes from another's on a shared folder.
    var hostName: String { get }
    /// Whether a process with this id runs on this machine.
    func processIsAlive(_ pid: Int32) -> Bool
    /// The processes holding an `flock` on the file open as `descriptor`, as the system lists them.
    func lockHolders(_ descriptor: Int32) -> [Int32]
    /// Opens a file for appending (and reading its tail), creating it, never through a symlink (`ELOOP`).
    func openForAppend(_ path: String) throws -> Int32
    /// Opens a file for reading, never through a symlink (`ELOOP`); nil when it does not exist.
    func openForReading(_ path: String) throws -> Int32?
    /// Reads up to `count` bytes at `offset` of an open file (fewer only at its end).
    func read(_ descriptor: Int32, at offset: Int, count: Int) throws -> [UInt8]
    /// Cuts an open file to `length` bytes.
    func truncate(_ descriptor: Int32, to length: Int) throws
    /// Writes into an existing file or device without replacing it (an
    /// export to `/dev/stdout`, a FIFO, a terminal): opens it for writing,
    /// never creating or truncating a device.
    func writeThrough(_ path: String, _ bytes: [UInt8]) throws
}
