import PMCore
import PMProcess

#if canImport(Glibc)
    import Glibc
#endif

/// One sync of a copy at a time (issue 20): a second `pm sync`, a
/// `--watch` and `pm board`'s background sync wait their turn instead of
/// tripping over each other's git locks. The lock is a `flock` on a file
/// beside the sync state; its descriptor is inherited by the git processes
/// a sync starts, so a sync killed mid-way keeps it until its git is done.
public struct SyncLock: Sendable {
    let descriptor: Int32

    /// How long a sync waits for another to finish: longer than any sync
    /// takes (its git steps each have a limit).
    public static let wait = 120.0

    /// Takes the lock at `path`, waiting up to `timeout` seconds.
    /// - Throws: ``SyncError/busy`` when another sync still holds it.
    public static func acquire(_ path: String, timeout: Double = wait) throws -> SyncLock {
        try PosixFileSystem().createDirectories(Paths.parent(of: path))
        // Close-on-exec: only the git this sync runs holds it too
        // (``ProcessRunner`` passes it on, ``whileHeld(_:)``), never a
        // program another thread starts meanwhile (pm board's notifier).
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SyncError.local(detail: path) }
        let start = ProcessRunner.seconds()
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return SyncLock(descriptor: descriptor) }
            if errno != EWOULDBLOCK && errno != EINTR {
                Glibc.close(descriptor)
                throw SyncError.local(detail: path)
            }
            // A git left running by a sync that was killed holds the lock
            // (it inherited it) until a silent server lets it go, minutes
            // later: it is nobody's now, so it is stopped (issue 43, item 13).
            if let orphan = orphanedHolder(of: descriptor) {
                kill(-orphan, SIGKILL)
                usleep(20_000)
                continue
            }
            if ProcessRunner.seconds() - start > timeout {
                Glibc.close(descriptor)
                throw SyncError.busy
            }
            usleep(50_000)
        }
    }

    /// A process that holds the lock although the sync that took it is
    /// gone: a command that sync ran (the leader of its own process group,
    /// as ``ProcessRunner`` starts each), no pm's child any more (adopted).
    /// Looked for only when the lock's taker is dead.
    static func orphanedHolder(of descriptor: Int32) -> pid_t? {
        let files = PosixFileSystem()
        let takers = files.lockHolders(descriptor)
        guard !takers.isEmpty, takers.allSatisfy({ kill($0, 0) != 0 && errno == ESRCH }),
            let lock = try? files.descriptorStatus(descriptor), let entries = try? files.contentsOfDirectory("/proc")
        else { return nil }
        let me = command(of: getpid())
        for entry in entries {
            guard let pid = pid_t(entry), pid > 1, pid != getpid(), getpgid(pid) == pid,
                let name = command(of: pid), name != me,
                let parent = parent(of: pid), parent == 1 || command(of: parent) != me,
                let open = try? files.contentsOfDirectory("/proc/\(entry)/fd")
            else { continue }
            for fd in open {
                guard let status = (try? files.status("/proc/\(entry)/fd/\(fd)")) ?? nil else { continue }
                if status.device == lock.device && status.inode == lock.inode { return pid }
            }
        }
        return nil
    }

    /// The name a process runs as (`/proc/PID/comm`).
    private static func command(of pid: pid_t) -> String? {
        guard let bytes = try? PosixFileSystem().readFile("/proc/\(pid)/comm") else { return nil }
        return String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
    }

    /// A process's parent (`/proc/PID/stat`, the field after the command's closing parenthesis).
    private static func parent(of pid: pid_t) -> pid_t? {
        guard let bytes = try? PosixFileSystem().readFile("/proc/\(pid)/stat"),
            let close = bytes.lastIndex(of: UInt8(ascii: ")"))
        else { return nil }
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 1 else { return nil }
        return pid_t(String(decoding: fields[1], as: UTF8.self))
    }

    /// The lock held by the sync under way on this thread of work: the
    /// commands it runs inherit it, so a sync killed mid-way keeps it until
    /// its git is done.
    @TaskLocal static var held: Int32?

    /// Runs `body` with the commands it starts holding this lock too.
    func whileHeld<T>(_ body: () throws -> T) rethrows -> T {
        try Self.$held.withValue(descriptor) { try body() }
    }

    public func release() {
        flock(descriptor, LOCK_UN)
        Glibc.close(descriptor)
    }
}

/// Whether a git process of this user is at work on `path` (named in its
/// arguments): only then may a lock file git left there be in use.
enum GitProcesses {
    static func running(on path: String) -> Bool {
        let me = getuid()
        let files = PosixFileSystem()
        guard let entries = try? files.contentsOfDirectory("/proc") else { return false }
        for entry in entries where entry.first?.isNumber == true {
            var info = stat()
            guard stat("/proc/" + entry, &info) == 0, info.st_uid == me,
                let bytes = try? files.readFile("/proc/" + entry + "/cmdline")
            else { continue }
            let arguments = bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            guard arguments.contains(where: { $0.hasSuffix("git") || $0.contains("git-") || $0.hasSuffix("/git") }) else {
                continue
            }
            if arguments.contains(where: { $0.contains(path) }) { return true }
        }
        return false
    }

    /// Removes the `*.lock` files git left in the repository at `gitDirectory`
    /// (a crash or `kill -9` mid-way), when no git of this user works there.
    /// Returns how many were removed.
    @discardableResult
    static func clearStaleLocks(in gitDirectory: String, olderThan seconds: Double = 0) -> Int {
        let files = PosixFileSystem()
        var found: [String] = []
        func visit(_ directory: String, depth: Int) {
            guard depth < 8, let names = try? files.contentsOfDirectory(directory) else { return }
            for name in names {
                let path = directory + "/" + name
                guard let status = (try? files.linkStatus(path)) ?? nil else { continue }
                if status.kind == .directory, name != "objects" {
                    visit(path, depth: depth + 1)
                } else if status.kind == .regular, name.hasSuffix(".lock") {
                    var info = stat()
                    if lstat(path, &info) == 0, Double(time(nil) - info.st_mtim.tv_sec) >= seconds { found.append(path) }
                }
            }
        }
        visit(gitDirectory, depth: 0)
        guard !found.isEmpty, !running(on: gitDirectory) else { return 0 }
        var removed = 0
        for path in found where (try? files.remove(path)) != nil { removed += 1 }
        return removed
    }

    /// Removes a folder of pm's own and everything in it, never following a link.
    static func removeTree(_ path: String, depth: Int = 0) {
        let files = PosixFileSystem()
        guard depth < 64, let status = (try? files.linkStatus(path)) ?? nil else { return }
        if status.kind == .directory {
            for name in (try? files.contentsOfDirectory(path)) ?? [] { removeTree(path + "/" + name, depth: depth + 1) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
