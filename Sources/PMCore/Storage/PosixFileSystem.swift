#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real file system, through POSIX calls.
public struct PosixFileSystem: FileSystem {
    public init() {}

    private func failure(_ call: String) -> SystemCallError {
        SystemCallError(call: call, code: errno)
    }

    public func status(_ path: String) throws -> FileStatus? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw failure("stat")
        }
        return Self.fileStatus(info)
    }

    public func linkStatus(_ path: String) throws -> FileStatus? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw failure("lstat")
        }
        return Self.fileStatus(info)
    }

    public func descriptorStatus(_ descriptor: Int32) throws -> FileStatus {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure("fstat") }
        return Self.fileStatus(info)
    }

    static func fileStatus(_ info: stat) -> FileStatus {
        let type = info.st_mode & S_IFMT
        let kind: FileStatus.Kind = type == S_IFREG ? .regular : type == S_IFDIR ? .directory : .other
        let nanos = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return FileStatus(
            kind: kind, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modifiedNanoseconds: nanos, mode: UInt32(info.st_mode & 0o7777), links: UInt64(info.st_nlink))
    }

    public func symbolicLinkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let length = readlink(path, &buffer, 4096)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public func readFile(_ path: String) throws -> [UInt8] {
        try readRegular(path, flags: 0)
    }

    public func readFileNoFollow(_ path: String) throws -> [UInt8] {
        try readRegular(path, flags: O_NOFOLLOW)
    }

    /// Maps a large buffer's pages in one call before it is filled: page
    /// by page, the faults of a board file of megabytes were a sixth of a
    /// `pm list`. Only a hint (Linux 5.14 and later); where refused, the
    /// pages come one fault at a time as before.
    static func prefault(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        let page = max(Int(sysconf(Int32(_SC_PAGESIZE))), 4096)
        guard buffer.count >= 64 * page, let base = buffer.baseAddress else { return }
        let start = (Int(bitPattern: base) + page - 1) & ~(page - 1)
        let end = (Int(bitPattern: base) + buffer.count) & ~(page - 1)
        guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(pointer, end - start, MADV_POPULATE_WRITE)
    }

    private func readRegular(_ path: String, flags: Int32) throws -> [UInt8] {
        // O_NONBLOCK: opening a FIFO must not hang; fstat then rejects it.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | flags)
        guard descriptor >= 0 else { throw failure("open") }
        defer { _ = Glibc.close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure("fstat") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw SystemCallError(call: "open", code: EISDIR) }
        // Read straight into the array, as large as the file says it is
        // (one copy, not one per 64 KB chunk), then on to whatever it grew by.
        var failed = false
        var result = [UInt8](unsafeUninitializedCapacity: max(Int(info.st_size), 0) + 1) { buffer, count in
            Self.prefault(buffer)
            while count < buffer.count {
                let read = Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
                if read < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    failed = true
                    return
                }
                if read == 0 { return }
                count += read
            }
        }
        if failed { throw failure("read") }
        guard result.count > Int(info.st_size) else { return result }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw failure("read")
            }
            if count == 0 { break }
            result.append(contentsOf: chunk[0..<count])
        }
        return result
    }

    public func createDirectories(_ path: String) throws {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0, errno != EEXIST { throw failure("mkdir") }
        }
    }

    public func openLockFile(_ path: String) throws -> Int32 {
        // Never follow a link someone planted, never block on a FIFO, never
        // make a terminal ours; the caller checks what was opened.
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0o644)
        guard descriptor >= 0 else { throw failure("open") }
        return descriptor
    }

    public func tryLock(_ descriptor: Int32) throws -> Bool {
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
            if errno == EINTR { continue }
            if errno == EWOULDBLOCK { return false }
            throw failure("flock")
        }
    }

    public func overwrite(_ descriptor: Int32, with bytes: [UInt8]) throws {
        guard ftruncate(descriptor, 0) == 0 else { throw failure("ftruncate") }
        guard lseek(descriptor, 0, SEEK_SET) >= 0 else { throw failure("lseek") }
        try write(descriptor, bytes[...])
    }

    public func readDescriptor(_ descriptor: Int32, limit: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: limit)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, limit, 0) }
        return count > 0 ? Array(buffer[0..<count]) : []
    }

    public func createExclusive(_ path: String, mode: UInt32) throws -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode_t(mode))
        guard descriptor >= 0 else { throw failure("open") }
        return descriptor
    }

    public func write(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.write(descriptor, base + offset, raw.count - offset)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("write")
            }
            if count == 0 { throw SystemCallError(call: "write", code: EIO) }
            offset += count
        }
    }

    public func sync(_ descriptor: Int32) throws {
        guard fsync(descriptor) == 0 else { throw failure("fsync") }
    }

    public func close(_ descriptor: Int32) throws {
        guard Glibc.close(descriptor) == 0 else { throw failure("close") }
    }

    public func rename(_ source: String, to destination: String) throws {
        guard Glibc.rename(source, destination) == 0 else { throw failure("rename") }
    }

    public func moveNoReplace(_ source: String, intoDirectory directory: String, name: String) throws {
        let folder = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else { throw failure("open") }
        defer { _ = Glibc.close(folder) }
        if glibcRenameat2(AT_FDCWD, source, folder, name, 1) == 0 { return }  // RENAME_NOREPLACE
        // A file system without renameat2: a hard link is never made over a name either.
        guard errno == EINVAL || errno == ENOSYS else { throw failure("renameat2") }
        guard linkat(AT_FDCWD, source, folder, name, 0) == 0 else { throw failure("linkat") }
        guard unlink(source) == 0 else { throw failure("unlink") }
    }

    public func syncDirectory(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open") }
        defer { _ = Glibc.close(descriptor) }
        // Some file systems refuse fsync on a directory (EINVAL): the rename is still done.
        if fsync(descriptor) != 0, errno != EINVAL { throw failure("fsync") }
    }

    public func remove(_ path: String) throws {
        guard unlink(path) == 0 else { throw failure("unlink") }
    }

    public func contentsOfDirectory(_ path: String) throws -> [String] {
        guard let directory = opendir(path) else { throw failure("opendir") }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    public var processID: Int32 { getpid() }

    public var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, 255) == 0 else { return "localhost" }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    public func processIsAlive(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    public func lockHolders(_ descriptor: Int32) -> [Int32] {
        guard let status = try? descriptorStatus(descriptor) else { return [] }
        // The list changes as other programs lock and unlock; read in several
        // calls, a line can be skipped. One large read is one consistent pass,
        // and a pass that misses the holder is tried again.
        for _ in 0..<3 {
            guard let text = Self.readSystemListAtOnce("/proc/locks") else { return [] }
            let holders = Self.holders(in: text, of: status)
            if !holders.isEmpty { return holders }
        }
        return []
    }

    /// A file of /proc read with as few `read` calls as its size allows.
    private static func readSystemListAtOnce(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        defer { _ = Glibc.close(descriptor) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return nil
            }
            if count == 0 { return result }
            result.append(contentsOf: chunk[0..<count])
        }
    }

    private static func holders(in text: [UInt8], of status: FileStatus) -> [Int32] {
        let major = ((status.device >> 8) & 0xFFF) | ((status.device >> 32) & ~0xFFF)
        let minor = (status.device & 0xFF) | ((status.device >> 12) & ~0xFF)
        var holders: [Int32] = []
        // `1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF`; waiters are marked `->`.
        for line in String(decoding: text, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "FLOCK", let pid = Int32(fields[4]) else { continue }
            let place = fields[5].split(separator: ":")
            guard place.count == 3, UInt64(place[0], radix: 16) == major, UInt64(place[1], radix: 16) == minor,
                UInt64(place[2]) == status.inode
            else { continue }
            holders.append(pid)
        }
        return holders
    }

    public func openForAppend(_ path: String) throws -> Int32 {
        let descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0o644)
        guard descriptor >= 0 else { throw failure("open") }
        return descriptor
    }

    public func openForReading(_ path: String) throws -> Int32? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        if descriptor < 0, errno == ENOENT { return nil }
        guard descriptor >= 0 else { throw failure("open") }
        return descriptor
    }

    public func read(_ descriptor: Int32, at offset: Int, count: Int) throws -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = result.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress.map { $0 + done }, count - done, off_t(offset + done))
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw failure("pread")
            }
            if got == 0 { break }
            done += got
        }
        return Array(result[0..<done])
    }

    public func truncate(_ descriptor: Int32, to length: Int) throws {
        guard ftruncate(descriptor, off_t(length)) == 0 else { throw failure("ftruncate") }
    }

    public func writeThrough(_ path: String, _ bytes: [UInt8]) throws {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw failure("open") }
        do {
            try write(descriptor, bytes[...])
        } catch {
            _ = Glibc.close(descriptor)
            throw error
        }
        try close(descriptor)
    }
}

/// glibc's `renameat2`, which Swift's Glibc module does not export.
@_silgen_name("renameat2")
func glibcRenameat2(
    _ oldDirectory: Int32, _ oldPath: UnsafePointer<CChar>, _ newDirectory: Int32, _ newPath: UnsafePointer<CChar>,
    _ flags: UInt32
) -> Int32
