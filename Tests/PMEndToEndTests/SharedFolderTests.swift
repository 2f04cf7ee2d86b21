import Foundation
import PMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A board's folder is writable by everyone who shares it: whatever they put
/// there, pm never follows, truncates or replaces another file through it.
@Suite struct SharedFolderTests {
    /// A file of the user's that a planted link points at.
    func victim(_ pm: PMBinary) -> String {
        let path = pm.home.file("victim.txt")
        pm.home.write("victim.txt", "precious\n")
        return path
    }

    func expectVictimIntact(_ path: String, _ note: String) {
        #expect(FileManager.default.contents(atPath: path) == Data("precious\n".utf8), "\(note): the victim file changed")
    }

    @Test(arguments: ["symlink", "hardlink", "fifo", "directory"])
    func aPlantedLockFileIsRefusedAndNothingIsTruncated(kind: String) throws {
        let pm = PMBinary()
        try pm.run(["add", "kept"])
        let board = pm.boardBytes()
        let lock = pm.boardPath + ".lock"
        let target = victim(pm)
        try FileManager.default.removeItem(atPath: lock)
        switch kind {
        case "symlink": try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: target)
        case "hardlink": #expect(link(target, lock) == 0)
        case "fifo": #expect(mkfifo(lock, 0o644) == 0)
        default: try FileManager.default.createDirectory(atPath: lock, withIntermediateDirectories: false)
        }
        let run = try pm.run(["add", "blocked"])
        #expect(run.status == 74, "\(kind): \(run.status) \(run.stderr)")
        #expect(run.stderr.contains("will neither follow nor overwrite it"), "\(kind): \(run.stderr)")
        expectVictimIntact(target, kind)
        #expect(pm.boardBytes() == board)
        #expect(try pm.run(["list"]).status == 0, "reads do not need the lock")
    }

    @Test func aPlantedOwnerFileLinkIsRefused() throws {
        let pm = PMBinary()
        try pm.run(["add", "kept"])
        let target = victim(pm)
        try FileManager.default.createSymbolicLink(atPath: pm.boardPath + ".lock.owner", withDestinationPath: target)
        let run = try pm.run(["add", "blocked"])
        #expect(run.status == 74 && run.stderr.contains("will neither follow nor overwrite it"), "\(run.stderr)")
        expectVictimIntact(target, "owner")
    }

    /// Temp files: a live writer's is never removed; a dead writer's link is
    /// removed as a link, its target untouched.
    @Test func plantedTempFilesAreNeverFollowedAndLiveOnesAreKept() throws {
        // The live writer is this test process: pm must be another.
        var pm = PMBinary()
        pm.inOwnProcess = true
        try pm.run(["add", "kept"])
        let target = victim(pm)
        let host = ProcessInfo.processInfo.hostName
        let live = pm.home.file(".board.json.tmp-\(host)-\(getpid())-feed")
        let dead = pm.home.file(".board.json.tmp-\(host)-2147480000-beef")
        let foreign = pm.home.file(".board.json.tmp-elsewhere.example-123-cafe")
        pm.home.write(".board.json.tmp-\(host)-\(getpid())-feed", "a live writer's half board")
        try FileManager.default.createSymbolicLink(atPath: dead, withDestinationPath: target)
        pm.home.write(".board.json.tmp-elsewhere.example-123-cafe", "another host's, just now")
        #expect(try pm.run(["add", "next"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: live), "a live writer's temp file was removed")
        #expect(FileManager.default.fileExists(atPath: foreign), "a recent temp file of another host was removed")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: dead)) == nil, "a dead writer's leftover stays")
        expectVictimIntact(target, "temp")
    }

    @Test func plantedStateFilesAreRefusedNeverFollowed() throws {
        let pm = PMBinary()
        try pm.run(["add", "kept", "--due", "2026-11-21"])
        let state = pm.home.file(".local/state/pm")
        let undoFile = try #require(try FileManager.default.contentsOfDirectory(atPath: state).first { $0.hasPrefix("undo-") })
        let target = victim(pm)
        try FileManager.default.removeItem(atPath: state + "/" + undoFile)
        try FileManager.default.createSymbolicLink(atPath: state + "/" + undoFile, withDestinationPath: target)
        let board = pm.boardBytes()
        let run = try pm.run(["add", "blocked"])
        #expect(run.status == 74 && run.stderr.contains("will neither follow nor overwrite it"), "\(run.stderr)")
        #expect(pm.boardBytes() == board)
        #expect(try pm.run(["undo"]).status == 74)
        expectVictimIntact(target, "undo state")

        // The reminders' log too.
        let remind = try pm.run(["remind"], ["PM_NOW": "2026-11-21T10:00:00Z"])
        #expect(remind.status == 0)
        let log = try #require(try FileManager.default.contentsOfDirectory(atPath: state).first { $0.hasPrefix("reminded-") })
        try FileManager.default.removeItem(atPath: state + "/" + log)
        try FileManager.default.createSymbolicLink(atPath: state + "/" + log, withDestinationPath: target)
        let again = try pm.run(["remind", "--all"])
        #expect(again.status == 74 && again.stderr.contains("will neither follow nor overwrite it"), "\(again.stderr)")
        expectVictimIntact(target, "reminder log")
    }

    /// Builds an `LD_PRELOAD` shim that makes `flock` a no-op, and proves it
    /// does: `flock -n` gets a lock this process holds.
    func noFlockShim(_ pm: PMBinary) throws -> String {
        let source = pm.home.file("noflock.c")
        pm.home.write(
            "noflock.c", "#include <sys/file.h>\nint flock(int fd, int operation) { (void)fd; (void)operation; return 0; }\n")
        let shim = pm.home.file("noflock.so")
        let cc = try runChild("/usr/bin/env", ["cc", "-shared", "-fPIC", "-o", shim, source])
        try #require(cc.status == 0, "cc is needed to build the no-op flock shim (the README's prerequisites)")
        let held = open(pm.home.file("probe.lock"), O_RDWR | O_CREAT, 0o644)
        defer { close(held) }
        #expect(flock(held, LOCK_EX | LOCK_NB) == 0)
        for (environment, expected) in [([String: String](), Int32(1)), (["LD_PRELOAD": shim], 0)] {
            let probe = try runChild("/usr/bin/flock", ["-n", pm.home.file("probe.lock"), "true"], environment: environment)
            try #require(probe.status == expected, "the shim does not make flock a no-op")
        }
        return shim
    }

    /// A shared folder that ignores locks: `flock` is a no-op (LD_PRELOAD).
    /// Eight people × 25 changes of every kind: every change acknowledged and kept.
    @Test func withFlockANoOpEightWritersLoseNothing() throws {
        let pm = PMBinary()
        try MixedWriters.check(pm, extra: ["LD_PRELOAD": try noFlockShim(pm), "PM_LOCK_TIMEOUT": "60"])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: pm.home.path).filter {
            $0.contains(".tmp-") || $0.hasSuffix(".owner") || $0.contains(".stale-")
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    /// With flock a no-op, a writer killed while it owned the board leaves its
    /// owner file behind; the next writer sees its process is gone and goes
    /// on, while a live owner is waited for and named.
    @Test func withFlockANoOpADeadOwnerIsBrokenAndALiveOneWaitedFor() throws {
        let pm = PMBinary()
        let shimmed = ["LD_PRELOAD": try noFlockShim(pm), "PM_LOCK_TIMEOUT": "0.3"]
        try pm.run(["add", "first"])
        let host = ProcessInfo.processInfo.hostName
        pm.home.write("board.json.lock.owner", "\(host) 2147480001 dead\n")
        let run = try pm.run(["add", "second"], shimmed)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: pm.boardPath + ".lock.owner"))
        pm.home.write("board.json.lock.owner", "\(host) \(getpid()) alive\n")
        let board = pm.boardBytes()
        let blocked = try pm.run(["add", "third"], shimmed)
        #expect(blocked.status == 75 && blocked.stderr.contains("pid \(getpid())"), "\(blocked.stderr)")
        #expect(pm.boardBytes() == board)
    }
}
