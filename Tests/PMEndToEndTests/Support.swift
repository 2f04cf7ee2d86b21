import Foundation
import PMCLI
import PMTestSupport
import Testing

/// The result of running the `pm` binary.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs the built `pm` binary in a temporary HOME with a controlled environment.
struct PMBinary {
    /// The `pm` built beside the test bundle.
    static let path: String = {
        if let explicit = ProcessInfo.processInfo.environment["PM_BINARY"] { return explicit }
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        // Swift Testing may run from inside the .xctest bundle.
        for _ in 0..<3 {
            let candidate = dir.appendingPathComponent("pm").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/pm").path
    }()

    /// A copy of the binary at `path` (``writeExecutable(_:to:)``).
    static func copy(to path: String) throws {
        try writeExecutable(try Data(contentsOf: URL(fileURLWithPath: Self.path)), to: path)
    }

    let home = TemporaryDirectory()
    /// Variables every run gets; a test adds or overrides its own.
    var environment: [String: String]

    init(language: String = "en_US.UTF-8", board: String? = nil) {
        environment = [
            "HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": language, "TZ": "UTC",
            "PM_NOW": "2026-11-21T10:00:00Z", "COLUMNS": "100", "PM_USER": "ji-woo",
        ]
        environment["PM_BOARD"] = board ?? home.file("board.json")
        // A suite run on a faked clock (`.ci/suite-any-day`): pm reads the
        // same clock as the test that runs it.
        for name in [
            "LD_PRELOAD", "FAKETIME", "FAKETIME_DONT_FAKE_MONOTONIC", "NO_FAKE_STAT",
        ] {
            if let value = ProcessInfo.processInfo.environment[name] { environment[name] = value }
        }
    }

    /// For a tool that reads no clock (`man`), or pm run as another user, in
    /// a run on a faked clock: libfaketime (0.9.10) shares its clock through
    /// shared memory and a semaphore that its first process creates, which
    /// man's sandbox and another user cannot open, and it says so on their
    /// error output. These runs read no date that matters (PM_NOW fixes it).
    static func withoutFakedClock() -> PMBinary {
        var binary = PMBinary()
        binary.environment["LD_PRELOAD"] = nil
        return binary
    }

    var boardPath: String { environment["PM_BOARD"] ?? "" }

    func boardBytes() -> Data? { FileManager.default.contents(atPath: boardPath) }

    /// Whether every run starts the binary, even one the test process
    /// could make itself: set by the suites where the process is the point.
    var inOwnProcess = false

    /// Runs pm: the built binary when the test asks for a process of its
    /// own (or names another binary), else the same entry point in this
    /// process (``InProcessPM``).
    @discardableResult
    func run(_ arguments: [String], _ extra: [String: String] = [:], binary: String = PMBinary.path) throws -> Run {
        let environment = environment.merging(extra) { _, new in new }
        if binary == PMBinary.path, !inOwnProcess, InProcessPM.canRun(environment) {
            return try InProcessPM.run(arguments, environment: environment)
        }
        // Not Foundation's Process: see `ChildProcess`.
        let child = try runChild(binary, arguments, environment: environment)
        return Run(
            status: child.status, stdout: String(decoding: child.stdout, as: UTF8.self),
            stderr: String(decoding: child.stderr, as: UTF8.self))
    }

    /// Runs pm with a terminal as its standard output (a pseudo-terminal from
    /// util-linux's `script`, present on every Debian): what a person sees.
    func runInTerminal(_ arguments: [String], _ extra: [String: String] = [:]) throws -> Run {
        let quoted = ([PMBinary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let run = try self.run(["-q", "-e", "-c", quoted.joined(separator: " "), "/dev/null"], extra, binary: "/usr/bin/script")
        return Run(status: run.status, stdout: run.stdout.replacingOccurrences(of: "\r\n", with: "\n"), stderr: run.stderr)
    }

    /// Copies the sample multilingual board from Resources/ to this run's board path.
    func useSampleBoard() throws {
        let sample = PMBinary.packageRoot.appendingPathComponent("Resources/sample-board.json")
        try FileManager.default.copyItem(at: sample, to: URL(fileURLWithPath: boardPath))
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
}

/// pm run inside the test process, through the entry point the binary
/// calls (``PMMain/run(_:)``) with its own arguments, variables and
/// descriptors: the same parsing, rendering, messages and exit codes,
/// without a process's start (most of a test run's time went there). A run
/// that needs a process of its own — another preloaded library or faked
/// clock, another ICU, or `PM_BINARY` naming the binary under test — starts one.
enum InProcessPM {
    static let own = ProcessInfo.processInfo.environment

    static func canRun(_ environment: [String: String]) -> Bool {
        if own["PM_BINARY"] != nil || own["PM_TEST_PROCESSES"] == "1" { return false }
        // What only a process's start reads: the same as this process's, or a process.
        for name in ["LD_PRELOAD", "FAKETIME", "FAKETIME_DONT_FAKE_MONOTONIC", "NO_FAKE_STAT"]
        where environment[name] != own[name] {
            return false
        }
        return !environment.keys.contains { ($0.hasPrefix("LD_") || $0.hasPrefix("PM_ICU_")) && environment[$0] != own[$0] }
    }

    static func run(_ arguments: [String], environment: [String: String]) throws -> Run {
        let output = try scratchFile()
        defer { close(output) }
        let errors = try scratchFile()
        defer { close(errors) }
        let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(input) }
        let invocation = Invocation(
            arguments: arguments.map { Array($0.utf8) }, variables: environment, input: input, output: output, error: errors)
        let status = PMMain.run(invocation)
        return Run(
            status: status, stdout: String(decoding: contents(output), as: UTF8.self),
            stderr: String(decoding: contents(errors), as: UTF8.self))
    }
}

/// Runs a Python script (an independent checker) and returns its exit status
/// and combined output, with the first `python3` that has the modules it
/// needs: the one on `PATH` (pip's), then the system's (Debian's packages).
/// A missing checker fails the test with what to install (the README's
/// prerequisites line); it never skips silently.
func runPython(
    _ script: String, _ arguments: [String], needs modules: [String] = [], environment: [String: String]? = nil
) throws -> (Int32, String) {
    let check = modules.map { "import " + $0 }.joined(separator: "; ")
    for interpreter in ["/usr/bin/env", "/usr/bin/python3"] where FileManager.default.isExecutableFile(atPath: interpreter) {
        if try modules.isEmpty || runPythonScript(interpreter, check, []).0 == 0 {
            return try runPythonScript(interpreter, script, arguments, environment: environment)
        }
    }
    return (
        1,
        "no python3 here has \(modules.joined(separator: ", ")), which this test's independent checker needs: "
            + "apt-get install -y python3-icalendar python3-jsonschema python3-dateutil (the README's prerequisites line)"
    )
}

private func runPythonScript(
    _ interpreter: String, _ script: String, _ arguments: [String], environment: [String: String]? = nil
) throws -> (Int32, String) {
    try runCapturing(
        interpreter, (interpreter == "/usr/bin/env" ? ["python3"] : []) + ["-c", script] + arguments, environment: environment)
}

/// Runs `executable` with `arguments` (and exactly `environment` when given,
/// in `directory` when given); returns its status and its output and errors together.
func runCapturing(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, in directory: String? = nil
) throws -> (Int32, String) {
    let child = try runChild(executable, arguments, environment: environment, in: directory, stderr: .output)
    return (child.status, String(decoding: child.stdout, as: UTF8.self))
}

/// What a folder remote (or pm's clone of a git one) holds for each replica
/// (DESIGN.md §9): its segments under `events/<replica>/`, and the whole
/// file `events/<replica>.jsonl` an older pm wrote.
struct RemoteEvents {
    /// The remote's `events` folder.
    let folder: String

    /// The replicas with a folder or a whole file there, sorted.
    var replicas: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return Set(
            names.compactMap { name in
                let stem = name.hasSuffix(".jsonl") ? String(name.dropLast(".jsonl".count)) : name
                return UUID(uuidString: stem) == nil ? nil : stem
            }
        ).sorted()
    }

    /// A replica's segments, in the order it published them.
    func segments(of replica: String) -> [String] {
        let root = folder + "/" + replica
        let found = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String]) ?? []
        return found.filter { $0.hasSuffix(".jsonl") && !$0.contains(".sync-conflict") && !$0.contains("conflicted") }
            .sorted { ($0.count, $0) < ($1.count, $1) }.map { root + "/" + $0 }
    }

    /// Every line a replica published, its whole file (if any) first.
    func text(of replica: String) -> String {
        ([folder + "/" + replica + ".jsonl"] + segments(of: replica)).compactMap {
            try? String(contentsOfFile: $0, encoding: .utf8)
        }.joined()
    }
}

/// A test argument whose bytes stay out of the test run's output (a whole
/// board file there reads as a crash dump); the test's other argument names it.
struct Unshown: CustomTestStringConvertible, Sendable {
    let text: String
    init(_ text: String) { self.text = text }
    var testDescription: String { "\(text.utf8.count) bytes" }
}

/// Writes a program (pm's copy, a hook, a stand-in script) through a
/// descriptor closed on exec: Foundation's writes and copyItem leave theirs
/// open to a child another test forks meanwhile, and the program then cannot
/// be run ("Text file busy") for as long as that child lives.
func writeExecutable(_ bytes: Data, to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission) }
    defer { close(fd) }
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw CocoaError(.fileWriteOutOfSpace) }
    fchmod(fd, 0o755)
}
