/// The writers' lock of one board (RELIABILITY.md).
///
/// 1. An exclusive `flock` on `board.json.lock`, waited for a bounded time.
///    The lock file is opened without following links and must be a regular
///    file with one name: anyone who can write a shared folder could plant a
///    symlink there to make every teammate's pm truncate a file of theirs.
/// 2. An owner file, `board.json.lock.owner`, created with `O_EXCL`. Where
///    `flock` works (tested on every take: a second open of the lock file
///    must be refused), any owner file left behind is stale and replaced.
///    Where it does nothing (a shared folder that ignores locks), the owner
///    file is the lock: only one writer can create it, a writer whose
///    process is gone (same host) or that stopped long ago (another host) is
///    broken, and a live one is waited for.
struct BoardLock {
    let fileSystem: FileSystem
    let descriptor: Int32
    let ownerPath: String
    /// What this writer wrote into the owner file.
    let ownerLine: String
    /// The file system's clock when the lock was taken, for judging the age of leftovers.
    let takenAtNanoseconds: Int64

    /// How old another host's owner file must be before it counts as abandoned.
    static let foreignOwnerLifetime: Int64 = 600 * 1_000_000_000
    /// How old an owner file that does not parse (being written) must be before it counts as abandoned.
    static let unreadableOwnerLifetime: Int64 = 10 * 1_000_000_000

    /// Takes the lock of `lockPath`, waiting at most `timeoutMilliseconds`.
    /// - Throws: ``PMError/locked(_:)`` on timeout, ``PMError/unsafeFile(path:)``
    ///   for a planted file, ``PMError/createFailed(path:_:)``.
    static func acquire(
        _ lockPath: String, fileSystem: FileSystem, timeoutMilliseconds: Int, sleep: (Int) -> Void
    ) throws -> BoardLock {
        let descriptor = try openChecked(lockPath, fileSystem: fileSystem)
        var waited = 0
        let interval = 5
        do {
            while try !fileSystem.tryLock(descriptor) {
                if waited >= timeoutMilliseconds { throw PMError.locked(holder(of: descriptor, fileSystem: fileSystem)) }
                sleep(interval)
                waited += interval
            }
        } catch let error as SystemCallError {
            try? fileSystem.close(descriptor)
            throw PMError.saveFailed(path: lockPath, error)
        } catch {
            try? fileSystem.close(descriptor)
            throw error
        }
        // Tell a waiting pm who holds the lock; not needed for correctness.
        try? fileSystem.overwrite(descriptor, with: Array("\(fileSystem.processID) \(safeHost(fileSystem))\n".utf8))
        let now = (try? fileSystem.descriptorStatus(descriptor).modifiedNanoseconds) ?? 0
        let token = String(UInt64.random(in: 1...UInt64.max), radix: 16)
        let line = "\(safeHost(fileSystem)) \(fileSystem.processID) \(token)\n"
        let lock = BoardLock(
            fileSystem: fileSystem, descriptor: descriptor, ownerPath: lockPath + ".owner", ownerLine: line,
            takenAtNanoseconds: now)
        do {
            let flockWorks = flockExcludes(lockPath, descriptor: descriptor, fileSystem: fileSystem)
            try lock.takeOwnerFile(flockWorks: flockWorks, waited: &waited, timeout: timeoutMilliseconds, sleep: sleep)
        } catch {
            try? fileSystem.close(descriptor)
            throw error
        }
        return lock
    }

    /// Whether this writer still owns the board (checked just before a save's rename).
    func stillHeld() -> Bool {
        guard let bytes = try? fileSystem.readFileNoFollow(ownerPath) else { return false }
        return String(decoding: bytes, as: UTF8.self) == ownerLine
    }

    /// Gives the lock up: removes the owner file if it is still this writer's, closes the lock file.
    func release() {
        if stillHeld() { try? fileSystem.remove(ownerPath) }
        try? fileSystem.close(descriptor)
    }

    // MARK: Steps

    /// Opens the lock file, refusing a symlink, a non-regular file or one with other names.
    private static func openChecked(_ lockPath: String, fileSystem: FileSystem) throws -> Int32 {
        do {
            if let status = try fileSystem.linkStatus(lockPath), status.kind != .regular || status.links > 1 {
                throw PMError.unsafeFile(path: lockPath)
            }
            let descriptor = try fileSystem.openLockFile(lockPath)
            let status: FileStatus
            do {
                status = try fileSystem.descriptorStatus(descriptor)
            } catch {
                try? fileSystem.close(descriptor)
                throw error
            }
            guard status.kind == .regular, status.links == 1 else {
                try? fileSystem.close(descriptor)
                throw PMError.unsafeFile(path: lockPath)
            }
            return descriptor
        } catch let error as SystemCallError {
            if error.code == 40 { throw PMError.unsafeFile(path: lockPath) }  // ELOOP: a symlink
            throw PMError.createFailed(path: lockPath, error)
        }
    }

    /// Whether `flock` really excludes here: while this process holds it, a
    /// second open of the same file must not get it. A no-op `flock` (some
    /// network and synced folders) grants it twice.
    private static func flockExcludes(_ lockPath: String, descriptor: Int32, fileSystem: FileSystem) -> Bool {
        guard let second = try? fileSystem.openLockFile(lockPath) else { return false }
        defer { try? fileSystem.close(second) }
        guard let first = try? fileSystem.descriptorStatus(descriptor), let other = try? fileSystem.descriptorStatus(second),
            first.inode == other.inode, first.device == other.device
        else { return false }
        return (try? fileSystem.tryLock(second)) == false
    }

    private func takeOwnerFile(flockWorks: Bool, waited: inout Int, timeout: Int, sleep: (Int) -> Void) throws {
        while true {
            do {
                let created = try fileSystem.createExclusive(ownerPath, mode: 0o644)
                do {
                    try fileSystem.write(created, Array(ownerLine.utf8)[...])
                } catch {
                    try? fileSystem.close(created)
                    try? fileSystem.remove(ownerPath)
                    throw error
                }
                do {
                    try fileSystem.close(created)
                } catch {
                    // Never closed twice: Linux frees the number even when
                    // close fails, and it may already name another file.
                    try? fileSystem.remove(ownerPath)
                    throw error
                }
                return
            } catch let error as SystemCallError where error.code == 17 {  // EEXIST
                let bytes: [UInt8]
                do {
                    bytes = try fileSystem.readFileNoFollow(ownerPath)
                } catch let error as SystemCallError {
                    switch error.code {
                    case 2: continue  // ENOENT: its owner just left
                    case 40, 21: throw PMError.unsafeFile(path: ownerPath)  // ELOOP, EISDIR
                    default: throw PMError.readFailed(path: ownerPath, error)
                    }
                }
                let content = String(decoding: bytes, as: UTF8.self)
                if flockWorks || isAbandoned(content) {
                    breakOwnerFile(content)
                    continue
                }
                if waited >= timeout { throw PMError.locked(Self.holder(ofOwnerLine: content, fileSystem: fileSystem)) }
                sleep(5)
                waited += 5
            } catch let error as SystemCallError {
                // Where the owner file cannot be made, neither can the board's temp file.
                throw PMError.saveFailed(path: String(ownerPath.dropLast(".lock.owner".count)), error)
            }
        }
    }

    /// Whether an owner file was left by a writer that is gone.
    private func isAbandoned(_ content: String) -> Bool {
        let age = (try? fileSystem.linkStatus(ownerPath)).flatMap { $0 }.map { takenAtNanoseconds - $0.modifiedNanoseconds }
        let fields = content.split(separator: " ")
        guard fields.count == 3, content.hasSuffix("\n"), let pid = Int32(fields[1]) else {
            return (age ?? 0) > Self.unreadableOwnerLifetime
        }
        if fields[0] == Self.safeHost(fileSystem) { return !fileSystem.processIsAlive(pid) }
        return (age ?? 0) > Self.foreignOwnerLifetime
    }

    /// Removes an abandoned owner file, making sure it is the one judged
    /// abandoned and not a new writer's that appeared meanwhile.
    private func breakOwnerFile(_ content: String) {
        let aside = ownerPath + ".stale-" + String(UInt64.random(in: 1...UInt64.max), radix: 16)
        guard (try? fileSystem.rename(ownerPath, to: aside)) != nil else { return }
        let moved = (try? fileSystem.readFileNoFollow(aside)).map { String(decoding: $0, as: UTF8.self) }
        if moved == content {
            try? fileSystem.remove(aside)
        } else {
            // A live writer's file: put it back; that writer checks it before its save.
            try? fileSystem.rename(aside, to: ownerPath)
        }
    }

    // MARK: Who holds it

    /// This host's name as written in lock files: no spaces or line breaks.
    static func safeHost(_ fileSystem: FileSystem) -> String {
        let name = String(fileSystem.hostName.unicodeScalars.map { $0.value > 0x20 && $0.value < 0x7F ? Character($0) : "_" })
        return name.isEmpty ? "localhost" : name
    }

    /// The process holding the flock, named only as far as it can be known:
    /// the system's list of locks, checked against the pid a pm wrote.
    private static func holder(of descriptor: Int32, fileSystem: FileSystem) -> LockHolder? {
        let written = String(decoding: fileSystem.readDescriptor(descriptor, limit: 300), as: UTF8.self)
        let fields = written.split(whereSeparator: { $0 == " " || $0 == "\n" })
        let writtenPID = fields.first.flatMap { Int32($0) }
        let holders = fileSystem.lockHolders(descriptor).filter { $0 != fileSystem.processID }
        if let pid = holders.first { return LockHolder(pid: pid, isPM: pid == writtenPID) }
        if let writtenPID, fileSystem.processIsAlive(writtenPID) { return LockHolder(pid: writtenPID) }
        return nil
    }

    private static func holder(ofOwnerLine content: String, fileSystem: FileSystem) -> LockHolder? {
        let fields = content.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count == 3, let pid = Int32(fields[1]) else { return nil }
        let host = String(fields[0])
        return LockHolder(pid: pid, host: host == safeHost(fileSystem) ? nil : host)
    }
}
