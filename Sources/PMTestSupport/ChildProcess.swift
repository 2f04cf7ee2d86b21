import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a finished child process left: its exit status (128 + the signal's
/// number when a signal ended it, as a shell says) and what it wrote.
public struct ChildOutput: Sendable {
    public var status: Int32
    public var stdout: Data
    public var stderr: Data
}

/// Where a child's output or errors go.
public enum ChildStream: Sendable {
    /// Kept, to read when it has ended.
    case capture
    /// Thrown away (/dev/null).
    case discard
    /// Written to this file (created or truncated): a FIFO, /dev/full…
    case file(String)
    /// Standard error only: where its standard output goes, interleaved as written.
    case output
}

/// A program this test started, without Foundation's `Process`: under
/// libfaketime and a loaded machine, `Process` lost a child's exit now and
/// then (gdb: test threads parked in `waitUntilExit()` for a pm that had
/// exited and been reaped), and the suite hung. Here the child is started
/// with `posix_spawn` (no signal blocked, SIGPIPE at its default: what a
/// shell gives it), what it writes goes to unlinked temporary files (a
/// chatty child never blocks on a full pipe, and a grandchild that keeps
/// them open cannot keep the test waiting), and ``wait()`` waits for
/// exactly that child with `waitpid`. A child nobody waited for is killed
/// and reaped when this goes.
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    private let out: Int32
    private let err: Int32
    private let lock = NSLock()
    private var ended: Int32?

    /// Starts `executable` (an absolute path) with `arguments`, in
    /// `directory` (this process's when nil), with exactly `environment`
    /// (this process's when nil), reading `input` (nothing: /dev/null).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, in directory: String? = nil,
        input: Data? = nil, stdout: ChildStream = .capture, stderr: ChildStream = .capture
    ) throws {
        out = try scratchFile()
        err = try scratchFile()
        let inputFile = try input.map(scratchFile(holding:))
        defer { if let inputFile { close(inputFile) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        redirect(&actions, input: inputFile, stdout: (stdout, out), stderr: (stderr, err))

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        startClean(&attributes)

        let variables = (environment ?? ProcessInfo.processInfo.environment).map { $0.key + "=" + $0.value }
        // env enters the directory (-C): glibc's addchdir_np is not in Swift's Glibc.
        let argv = directory.map { ["/usr/bin/env", "-C", $0, executable] } ?? [executable]
        var cArguments = (argv + arguments).map { strdup($0) } + [nil]
        var cVariables = variables.map { strdup($0) } + [nil]
        defer { for pointer in cArguments + cVariables { free(pointer) } }
        var pid: pid_t = 0
        var failed = posix_spawn(&pid, argv[0], &actions, &attributes, &cArguments, &cVariables)
        // A binary a test just copied can be held open for writing, for a
        // moment, by a child another thread is starting (between its fork
        // and its exec): running it then fails with ETXTBSY. Go's exec
        // waits and tries again; so does this, for up to a second.
        for _ in 0..<100 where failed == ETXTBSY {
            usleep(10_000)
            failed = posix_spawn(&pid, argv[0], &actions, &attributes, &cArguments, &cVariables)
        }
        guard failed == 0 else {
            close(out)
            close(err)
            throw POSIXError(POSIXErrorCode(rawValue: failed) ?? .EIO)
        }
        self.pid = pid
    }

    /// Whether it is still running (it is reaped once it has ended).
    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        if ended != nil { return false }
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == pid { ended = Self.code(status) }
        return reaped == 0 || (reaped < 0 && errno == EINTR)
    }

    /// Sends `signal` to it and to what it started (its process group);
    /// nothing once it has been reaped: its pid may be another's.
    public func send(_ signal: Int32) {
        lock.lock()
        defer { lock.unlock() }
        if ended == nil { kill(-pid, signal) }
    }

    /// Waits for it to end; returns its status (128 + the signal's number
    /// when a signal ended it, as a shell says) and what it wrote.
    @discardableResult
    public func wait() -> ChildOutput {
        lock.lock()
        defer { lock.unlock() }
        if ended == nil {
            var status: Int32 = 0
            var reaped: pid_t
            repeat { reaped = waitpid(pid, &status, 0) } while reaped < 0 && errno == EINTR
            ended = reaped == pid ? Self.code(status) : 128 + SIGKILL
        }
        return ChildOutput(status: ended ?? 0, stdout: contents(out), stderr: contents(err))
    }

    private static func code(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    deinit {
        if ended == nil {
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        close(out)
        close(err)
    }
}

/// Runs one program to its end (see ``ChildProcess``) and returns what it wrote.
public func runChild(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, in directory: String? = nil,
    input: Data? = nil, stdout: ChildStream = .capture, stderr: ChildStream = .capture
) throws -> ChildOutput {
    try ChildProcess(
        executable, arguments, environment: environment, in: directory, input: input, stdout: stdout, stderr: stderr
    ).wait()
}

/// A scratch file holding `bytes`, read from its start.
private func scratchFile(holding bytes: Data) throws -> Int32 {
    let descriptor = try scratchFile()
    bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let wrote = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if wrote < 0 && errno == EINTR { continue }
            if wrote <= 0 { break }
            offset += wrote
        }
    }
    lseek(descriptor, 0, SEEK_SET)
    return descriptor
}

/// The child reads `input` (nothing: /dev/null), its output and errors go
/// where their streams say (`.capture`: to the scratch file beside it), and
/// it holds nothing else this process has open.
private func redirect(
    _ actions: inout posix_spawn_file_actions_t, input: Int32?, stdout: (ChildStream, Int32), stderr: (ChildStream, Int32)
) {
    if let input {
        posix_spawn_file_actions_adddup2(&actions, input, 0)
    } else {
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    }
    for (descriptor, stream, scratch) in [(Int32(1), stdout.0, stdout.1), (2, stderr.0, stderr.1)] {
        switch stream {
        case .capture: posix_spawn_file_actions_adddup2(&actions, scratch, descriptor)
        case .discard: posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
        case .file(let path):
            posix_spawn_file_actions_addopen(&actions, descriptor, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        case .output: posix_spawn_file_actions_adddup2(&actions, 1, descriptor)
        }
    }

    // Nothing else this process has open: a binary another test thread
    // is copying, held open for writing by this child, cannot be run
    // (ETXTBSY), and a pipe it holds never ends.
    _ = closeFrom?(&actions, 3)
}

/// The child starts with no signal blocked and SIGPIPE at its default, in
/// a process group of its own.
private func startClean(_ attributes: inout posix_spawnattr_t) {
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    // Its own process group, so that a signal reaches what it started too,
    // as Ctrl-C in a terminal does.
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
        &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which Swift's
/// Glibc module leaves out (it is a GNU extension).
private let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
        return nil
    }
    return unsafeBitCast(
        symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
}()

/// A temporary file already unlinked: gone when closed, whatever happens.
public func scratchFile() throws -> Int32 {
    var template = Array((TemporaryDirectory.scratchSpace + "/pm-test-XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    return descriptor
}

/// Everything a scratch file holds.
public func contents(_ descriptor: Int32) -> Data {
    var bytes = Data()
    var chunk = [UInt8](repeating: 0, count: 65_536)
    var offset = 0
    while true {
        let got = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 65_536, off_t(offset)) }
        if got < 0 && errno == EINTR { continue }
        if got <= 0 { break }
        bytes.append(contentsOf: chunk[0..<got])
        offset += got
    }
    return bytes
}
