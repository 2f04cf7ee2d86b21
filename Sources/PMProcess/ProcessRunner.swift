#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a command (git, gdbus) with a time limit, its output captured in
/// unlinked temporary files so that a chatty child can never block on a full
/// pipe.
public struct ProcessRunner: Sendable {
    public struct Result: Sendable {
        public var status: Int32
        public var output: String
        public var errors: String
        public var timedOut: Bool
    }

    public struct SpawnError: Error {
        public var call: String
        public var code: Int32
    }

    /// Exactly the variables the command gets.
    public var environment: [String: String]

    public init(environment: [String: String]) {
        self.environment = environment
    }

    /// Runs `executable` (looked up on the child's PATH) with `arguments`;
    /// kills it after `timeout` seconds, or after `idle` seconds in which it
    /// wrote nothing, used no processor time (it and every process it
    /// started: a local git server packing a large object for seconds) and
    /// `progress` (a measure of its work: the bytes it has received so far)
    /// did not change — a transfer that makes progress may take its time,
    /// whether or not it says so.
    /// - Parameter inherited: a descriptor the command gets too, as its
    ///   descriptor 3 (a sync's lock); it gets nothing else this process holds.
    public func run(
        _ executable: String, _ arguments: [String], in directory: String? = nil, timeout: Double, idle: Double? = nil,
        inherited: Int32? = nil, progress: (() -> Int)? = nil
    ) throws -> Result {
        let out = try scratchFile()
        defer { _ = close(out) }
        let err = try scratchFile()
        defer { _ = close(err) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        Self.redirect(&actions, out: out, err: err, inherited: inherited)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        Self.startClean(&attributes)

        // env finds the command on the child's PATH, and enters the directory (-C).
        let argv = ["/usr/bin/env"] + (directory.map { ["-C", $0] } ?? []) + [executable] + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        var cVariables = environment.map { strdup($0.key + "=" + $0.value) } + [nil]
        defer { for pointer in cArguments + cVariables { free(pointer) } }
        var pid: pid_t = 0
        let failed = posix_spawn(&pid, argv[0], &actions, &attributes, &cArguments, &cVariables)
        guard failed == 0 else { throw SpawnError(call: "posix_spawn", code: failed) }

        let (status, timedOut) = Self.wait(for: pid, writing: (out, err), timeout: timeout, idle: idle, progress: progress)
        let exited = (status & 0x7f) == 0
        let code = exited ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Result(status: code, output: Self.contents(out), errors: Self.contents(err), timedOut: timedOut)
    }

    /// The child reads nothing (/dev/null), writes to `out` and `err`, and
    /// gets `inherited` as its descriptor 3.
    private static func redirect(_ actions: inout posix_spawn_file_actions_t, out: Int32, err: Int32, inherited: Int32?) {
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out, 1)
        posix_spawn_file_actions_adddup2(&actions, err, 2)
        // What the caller passes on, as descriptor 3; nothing else this
        // process has open (a file another thread is writing, held open by
        // a long git, could not be run: ETXTBSY).
        if let inherited { posix_spawn_file_actions_adddup2(&actions, inherited, 3) }
        _ = closeFrom?(&actions, inherited == nil ? 3 : 4)
    }

    /// The child starts with no signal blocked and SIGPIPE at its default,
    /// whatever this process does with them, in a process group of its own.
    private static func startClean(_ attributes: inout posix_spawnattr_t) {
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // Its own process group, so that a time-out ends what it started too
        // (git's ssh or https helper), not only the child itself. Nothing it
        // runs may prompt (GitTransport turns prompts off), so it needs no terminal.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
    }

    /// Waits for `pid` to end, killing its process group at the `timeout`
    /// or once `idle` (see ``run(_:_:in:timeout:idle:inherited:progress:)``);
    /// returns its wait status and whether it was killed.
    /// - Parameter files: the scratch files it writes its output and errors to.
    private static func wait(
        for pid: pid_t, writing files: (out: Int32, err: Int32), timeout: Double, idle: Double?, progress: (() -> Int)?
    ) -> (status: Int32, timedOut: Bool) {
        let deadline = seconds() + timeout
        var timedOut = false
        var status: Int32 = 0
        var written = size(files.out) + size(files.err)
        var lastProgress = seconds()
        var measured = progress?()
        var lastMeasure = lastProgress
        var working = processorTicks(ofGroup: pid)
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0 && errno != EINTR { break }
            let now = seconds()
            if idle != nil {
                let size = Self.size(files.out) + Self.size(files.err)
                if size != written { (written, lastProgress) = (size, now) }
                if now - lastMeasure >= 0.25 {
                    lastMeasure = now
                    let value = progress?()
                    if value != measured { (measured, lastProgress) = (value, now) }
                    // Busy is not silent: a process waiting on a network uses none.
                    let ticks = processorTicks(ofGroup: pid)
                    if ticks > working + 2 { lastProgress = now }
                    working = ticks
                }
            }
            if now > deadline || idle.map({ now - lastProgress > $0 }) == true {
                timedOut = true
                kill(-pid, SIGKILL)
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                break
            }
            usleep(5_000)
        }
        return (status, timedOut)
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which
    /// Swift's Glibc module leaves out (a GNU extension); nil before 2.34.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            return nil
        }
        return unsafeBitCast(
            symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// A temporary file already unlinked: gone when closed, whatever happens.
    private func scratchFile() throws -> Int32 {
        let base = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = Array((base + "/pm-run-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw SpawnError(call: "mkstemp", code: errno) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return descriptor
    }

    /// All a scratch file holds, as text.
    private static func contents(_ descriptor: Int32) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var offset = 0
        while true {
            let got = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 65_536, off_t(offset)) }
            if got < 0 && errno == EINTR { continue }
            if got <= 0 { break }
            bytes.append(contentsOf: chunk[0..<got])
            offset += got
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func size(_ descriptor: Int32) -> Int {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? Int(info.st_size) : 0
    }

    /// The processor time (clock ticks, user and system) of every process
    /// in process group `group` (as ``run`` starts each command: its own group).
    static func processorTicks(ofGroup group: pid_t) -> Int {
        guard let directory = opendir("/proc") else { return 0 }
        defer { closedir(directory) }
        var total = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = pid_t(name), getpgid(pid) == group else { continue }
            let descriptor = open("/proc/\(name)/stat", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 1024)
            let count = read(descriptor, &buffer, buffer.count)
            close(descriptor)
            guard count > 0, let close = buffer[..<count].lastIndex(of: UInt8(ascii: ")")) else { continue }
            // After the command: state (0), …, utime (11), stime (12).
            let fields = buffer[(close + 2)..<count].split(separator: UInt8(ascii: " "))
            guard fields.count > 12 else { continue }
            total +=
                (Int(String(decoding: fields[11], as: UTF8.self)) ?? 0) + (Int(String(decoding: fields[12], as: UTF8.self)) ?? 0)
        }
        return total
    }

    /// Seconds on the monotonic clock.
    public static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
