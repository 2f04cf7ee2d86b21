import Foundation
import PMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A sync killed once what it published reached the remote (its push
/// landed) is known for what it did: `pm status` does not count those
/// changes as waiting (a folder's files are seen directly, a git remote is
/// asked), and the state says so from then on; one killed before they
/// landed still counts them, and the next sync sends them.
@Suite(.onOwnThreads) struct InterruptedSyncTests {
    typealias Copy = SyncEndToEndTests.Copy

    static func waiting(_ copy: Copy) throws -> Int {
        let text = try copy.run(["status", "--json"]).stdout
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return try #require(object?["waiting"] as? Int, "\(text)")
    }

    /// The git daemon's repository answers each push only after five seconds
    /// (a `post-receive` hook: the branch has moved by then); the sync is
    /// killed in between.
    @Test func aSyncKilledAfterItsPushLandedLeavesNothingWaiting() throws {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        let bare = pm.home.file("remote.git")
        _ = try runGit(["init", "-q", "--bare", bare])
        let daemon = GitDaemon(base: pm.home.path)
        try daemon.start()
        defer { daemon.stop() }
        let me = Copy(pm: pm, board: pm.home.file("me/board.json"), user: "camille")
        #expect(try me.run(["remote", "add", daemon.url]).status == 0)
        try me.run(["add", "First"])
        #expect(try me.run(["sync"]).status == 0)
        let hook = bare + "/hooks/post-receive"
        try writeExecutable(Data("#!/bin/sh\nsleep 5\n".utf8), to: hook)
        try me.run(["add", "Second"])
        try me.run(["add", "Third"])
        func branch() -> String? { try? String(contentsOfFile: bare + "/refs/heads/pm-board", encoding: .utf8) }
        let before = branch()
        #expect(before != nil)
        let sync = try ChildProcess(
            PMBinary.path, ["sync", "--board", me.board],
            environment: pm.environment.merging(["PM_USER": "camille"]) { _, new in new }, stdout: .discard,
            stderr: .discard)
        // Killed once the branch moved, while git waits for the hook.
        let deadline = Date().addingTimeInterval(20)
        while branch() == before && Date() < deadline { usleep(20_000) }
        sync.send(SIGKILL)
        #expect(sync.wait().status == 128 + SIGKILL, "the sync ended before it could be killed")
        try FileManager.default.removeItem(atPath: hook)
        // Without the network, `pm list` can only say what the last sync said.
        #expect(try me.run(["list"]).stdout.contains("2 changes waiting"))
        #expect(try Self.waiting(me) == 0)
        #expect(try me.run(["list"]).stdout.contains("0 changes waiting"), "the state says so from then on")
        let next = try me.run(["sync"])
        #expect(next.stdout.contains("sent: 0"), "\(next.stdout)")
    }

    /// A folder: the segment the killed sync published is there, or (killed
    /// before it landed) it is not, and the changes still wait.
    @Test(arguments: [true, false])
    func aFoldersFilesAreLookedAtDirectly(landed: Bool) throws {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        let share = pm.home.file("share")
        let me = Copy(pm: pm, board: pm.home.file("me/board.json"), user: "camille")
        try me.run(["remote", "add", share])
        try me.run(["add", "First"])
        try me.run(["sync"])
        try me.run(["add", "Second"])
        let stateFolder = pm.home.file(".local/state/pm")
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: stateFolder).first {
                $0.hasPrefix("sync-") && $0.hasSuffix(".json")
            })
        let before = try Data(contentsOf: URL(fileURLWithPath: stateFolder + "/" + name))
        #expect(try me.run(["sync"]).stdout.contains("sent: 1"))
        // As a sync killed just after its publication leaves the state: the
        // old one, with what it was about to publish.
        let after = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stateFolder + "/" + name)))
                as? [String: Any])
        let events = RemoteEvents(folder: share + "/events")
        let replica = try #require(events.replicas.first)
        let segment = try #require(events.segments(of: replica).max())
        let published = "events/" + segment.dropFirst(share.count + "/events/".count)
        var killed = try #require(try JSONSerialization.jsonObject(with: before) as? [String: Any])
        killed["publishing"] = [
            "events": after["syncedEvents"] ?? 0, "length": after["syncedLength"] ?? 0, "last": after["syncedLast"] ?? "",
            "segments": after["segments"] ?? [:], "files": [published],
        ]
        try JSONSerialization.data(withJSONObject: killed).write(to: URL(fileURLWithPath: stateFolder + "/" + name))
        if !landed { try FileManager.default.removeItem(atPath: segment) }
        #expect(try Self.waiting(me) == (landed ? 0 : 1))
        #expect(try me.run(["list"]).stdout.contains(landed ? "0 changes waiting" : "1 change waiting"))
        let sync = try me.run(["sync"])
        #expect(sync.stdout.contains(landed ? "sent: 0" : "sent: 1"), "\(sync.stdout)")
        #expect(try Self.waiting(me) == 0)
    }
}
