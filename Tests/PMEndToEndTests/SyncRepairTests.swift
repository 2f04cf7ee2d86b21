import Foundation
import PMTestSupport
import Testing

/// A sync heals what a killed or failed sync left behind, and two syncs of
/// one copy take turns (issue 20), through the binary with real git.
@Suite struct SyncRepairTests {
    typealias Copy = SyncEndToEndTests.Copy

    /// Two people on a bare repository, both synced once.
    func team() throws -> (pm: PMBinary, bare: String, a: Copy, b: Copy) {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        let bare = pm.home.file("team.git")
        _ = try runGit(["init", "-q", "--bare", bare])
        let people = SyncEndToEndTests().copies(pm, ["camille", "ji-woo"])
        for person in people { try person.run(["remote", "add", bare]) }
        try people[0].run(["add", "Seed"])
        #expect(try people[0].run(["sync"]).status == 0)
        #expect(try people[1].run(["sync"]).status == 0)
        return (pm, bare, people[0], people[1])
    }

    /// pm's clone of the remote for `copy` (in the state directory).
    func cache(_ pm: PMBinary, user: String) throws -> String {
        let state = pm.home.file(".local/state/pm")
        let clones = try FileManager.default.contentsOfDirectory(atPath: state).filter {
            $0.hasPrefix("git-") && $0.hasSuffix("-" + user) && !$0.contains(".damaged-")
        }
        return state + "/" + (try #require(clones.first))
    }

    @Test func locksAKilledSyncLeftInItsCloneAreCleared() throws {
        let (pm, _, a, b) = try team()
        let clone = try cache(pm, user: "camille")
        for name in ["index.lock", "HEAD.lock", "refs/heads/pm-board.lock", "packed-refs.lock"] {
            _ = FileManager.default.createFile(atPath: clone + "/.git/" + name, contents: Data())
        }
        try a.run(["add", "After the kill"])
        let sync = try a.run(["sync"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(try b.run(["sync"]).status == 0)
        #expect(try b.run(["list", "--json"]).stdout.contains("After the kill"))
    }

    @Test func aLockAKilledPushLeftInTheSharedRepositoryIsCleared() throws {
        let (_, bare, a, b) = try team()
        let lock = bare + "/refs/heads/pm-board.lock"
        _ = FileManager.default.createFile(atPath: lock, contents: Data())
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: lock)
        try a.run(["add", "Pushed past the lock"])
        let sync = try a.run(["sync"])
        #expect(sync.status == 0, "no false offline: \(sync.stderr)")
        #expect(!FileManager.default.fileExists(atPath: lock))
        #expect(try b.run(["sync"]).status == 0)
        #expect(try b.run(["list", "--json"]).stdout.contains("Pushed past the lock"))
    }

    @Test func aDamagedOrHalfMadeCloneIsMadeAgain() throws {
        let (pm, _, a, b) = try team()
        let clone = try cache(pm, user: "camille")
        // Objects gone (a full disk, a kill during the first fetch).
        try FileManager.default.removeItem(atPath: clone + "/.git/objects")
        try FileManager.default.createDirectory(atPath: clone + "/.git/objects", withIntermediateDirectories: true)
        try a.run(["add", "After the damage"])
        let sync = try a.run(["sync"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(try b.run(["sync"]).status == 0)
        #expect(try b.run(["list", "--json"]).stdout.contains("After the damage"))
        // A clone that is only a folder with a broken HEAD.
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: clone + "/.git/HEAD"))
        try b.run(["add", "Again"])
        #expect(try b.run(["sync"]).status == 0)
        let again = try a.run(["sync"])
        #expect(again.status == 0 && again.stdout.contains("received: 1"), "\(again.stdout) \(again.stderr)")
    }

    @Test func twoSyncsOfOneCopyTakeTurns() throws {
        let (_, _, a, b) = try team()
        for round in 0..<3 {
            try a.run(["add", "Round \(round)"])
            let lock = NSLock()
            nonisolated(unsafe) var results: [Run] = []
            DispatchQueue.concurrentPerform(iterations: 3) { _ in
                if let run = try? a.run(["sync"]) { lock.withLock { results.append(run) } }
            }
            #expect(results.count == 3 && results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
            let status = try a.run(["status"]).stdout
            #expect(status.contains("0 changes waiting") || !status.contains("waiting"), "\(status)")
        }
        #expect(try b.run(["sync"]).status == 0)
        let titles = try b.run(["list", "--json"]).stdout
        #expect((0..<3).allSatisfy { titles.contains("Round \($0)") })
    }
}
