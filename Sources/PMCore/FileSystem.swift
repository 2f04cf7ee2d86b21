/// What a path is, and enough of its identity to notice a replacement.
public struct FileStatus: Equatable, Sendable {
    public enum Kind: Sendable { case regular, directory, other }
    public var kind: Kind
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modifiedNanoseconds: Int64
    public var mode: UInt32

    public init(kind: Kind, device: UInt64, inode: UInt64, size: Int64, modifiedNanoseconds: Int64, mode: UInt32) {
        self.kind = kind
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
        self.mode = mode
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
    /// The whole content of a regular file.
    func readFile(_ path: String) throws -> [UInt8]
    /// Creates a directory and its missing parents.
    func createDirectories(_ path: String) throws
    /// Opens (creating) a lock file; returns its descriptor.
    func openLockFile(_ path: String) throws -> Int32
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
    /// Flushes a directory's entries (after a rename).
    func syncDirectory(_ path: String) throws
    /// Removes a file; errors are ignored by callers that only clean up.
    func remove(_ path: String) throws
    /// The names in a directory.
    func contentsOfDirectory(_ path: String) throws -> [String]
    /// This process's id, written into the lock file.
    var processID: Int32 { get }
}
