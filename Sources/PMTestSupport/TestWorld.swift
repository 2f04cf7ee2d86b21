import Foundation
import PMCore

/// Ids 00000000-0000-4000-8000-000000000001, …2, … in order.
public final class CountingIDs: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private let prefix: String

    /// - Parameter prefix: 8 hex digits that start every id (to make prefixes collide or not).
    public init(prefix: String = "00000000") {
        self.prefix = prefix
    }

    public func make() -> TaskID {
        let n = lock.withLock {
            next += 1
            return next
        }
        let tail = String(n, radix: 16)
        let padded = String(repeating: "0", count: 12 - tail.count) + tail
        guard let id = TaskID("\(prefix)-0000-4000-8000-\(padded)") else { preconditionFailure("bad test id") }
        return id
    }
}

/// A temporary directory, removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String

    public init() {
        let base = Self.scratchSpace + "/pm-test-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        path = base
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Where tests make their files: `TMPDIR` when it is set; else memory
    /// (`/dev/shm`) where there is some, else `/tmp`. What the tests check
    /// is the same on both; only `fsync` differs, which on a disk blocks a
    /// thread for each of the suite's tens of thousands of saves (a fifth
    /// of a run here). The bench measures pm on the disk.
    public static let scratchSpace: String = {
        if let set = ProcessInfo.processInfo.environment["TMPDIR"], set.hasPrefix("/") { return set }
        var info = stat()
        if stat("/dev/shm", &info) == 0, info.st_mode & S_IFMT == S_IFDIR, access("/dev/shm", W_OK | X_OK) == 0 {
            return "/dev/shm"
        }
        return "/tmp"
    }()

    /// A path inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// The bytes of a file, or nil.
    public func read(_ name: String) -> Data? { FileManager.default.contents(atPath: file(name)) }

    /// Writes a file.
    public func write(_ name: String, _ text: String) {
        _ = FileManager.default.createFile(atPath: file(name), contents: Data(text.utf8))
    }
}

extension PMEnvironment {
    /// A fixed clock, counting ids, UTC unless told otherwise.
    public static func test(
        now: String = "2026-11-21T10:00:00Z", timeZone: String = "UTC", user: String = "ji-woo",
        boardPath: String = "/nonexistent/board.json"
    ) -> PMEnvironment {
        let zone = Zone(identifier: timeZone) ?? .utc
        let instant = Timestamp.parse(now, zone: zone) ?? Date(timeIntervalSince1970: 0)
        let ids = CountingIDs()
        return PMEnvironment(
            now: { instant }, makeID: { ids.make() }, timeZone: zone, user: user, boardPath: boardPath,
            stateDirectory: "/nonexistent/state")
    }
}

/// SplitMix64: a seeded random generator, so that a failing property test
/// names a sequence that replays exactly.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
