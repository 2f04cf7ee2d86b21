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

/// Each failure says what it is, with its own exit code (README): no
/// access is 77, a full disk 74 — never a false "offline" (75).
@Suite struct SyncFailureNamesTests {
    /// A person without write access to a shared folder, and to a team
    /// repository another user owns: permission denied, exit 77, in their
    /// language; nothing lost. (pm runs as an unprivileged user: `setpriv`.)
    @Test func noAccessIsSaidAsSuch() throws {
        let pm = PMBinary.withoutFakedClock()
        let home = pm.home.file("nobody")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let share = pm.home.file("share")
        try FileManager.default.createDirectory(atPath: share, withIntermediateDirectories: true)
        let bare = pm.home.file("team.git")
        _ = try runGit(["init", "-q", "--bare", bare])
        // The binary where the other user can run it, their home theirs.
        let binary = pm.home.file("pm")
        try PMBinary.copy(to: binary)
        for path in [pm.home.path, share, bare] { chmod(path, 0o755) }
        _ = try runGit(["-c", "safe.directory=*", "--git-dir=" + bare, "config", "core.sharedRepository", "false"])
        chown(home, 65534, 65534)
        func run(_ arguments: [String], _ language: String = "en_US.UTF-8") throws -> Run {
            // The copy may be held open for a moment by a child another
            // thread is starting (ETXTBSY): env then says so, and it goes again.
            for _ in 0..<100 {
                let run = try pm.run(
                    [
                        "--reuid=65534", "--regid=65534", "--clear-groups", "env", "HOME=" + home,
                        "XDG_STATE_HOME=" + home + "/state",
                        "PM_BOARD=" + home + "/board.json", "PM_USER=nobody", "LANG=" + language, binary,
                    ] + arguments, binary: "/usr/bin/setpriv")
                guard run.status == 126, run.stderr.contains("Text file busy") else { return run }
                usleep(20_000)
            }
            return Run(status: 126, stdout: "", stderr: "Text file busy for two seconds")
        }
        let added = try run(["add", "Mine"])
        #expect(added.status == 0, "\(added.status) \(added.stderr)")
        for target in [share, bare] {
            #expect(try run(["remote", "add", target]).status == 0)
            let sync = try run(["sync"])
            #expect(sync.status == 77, "\(target): \(sync.status) \(sync.stderr)")
            #expect(sync.stderr.contains("permission denied") && sync.stderr.contains(target), "\(sync.stderr)")
            let french = try run(["sync"], "fr_FR.UTF-8")
            #expect(french.status == 77 && french.stderr.contains("permission refusée"), "\(french.stderr)")
            #expect(try run(["list", "--json"]).stdout.contains("Mine"), "nothing lost")
        }
    }

    /// A shared folder on a full disk (a 16 KB tmpfs over it, in a mount
    /// namespace of its own): disk full, exit 74, nothing lost, no
    /// half-written file left; the sync after space is freed sends it all.
    @Test func aFullDiskIsSaidAsSuch() throws {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        let share = pm.home.file("share")
        try FileManager.default.createDirectory(atPath: share, withIntermediateDirectories: true)
        let me = SyncEndToEndTests.Copy(pm: pm, board: pm.home.file("me/board.json"), user: "me")
        #expect(try me.run(["remote", "add", share]).status == 0)
        for n in 1...40 { try me.run(["add", "A task with a title long enough to fill a small disk, number \(n)"]) }
        let script = """
            mount -t tmpfs -o size=16k tmpfs "$0" && head -c 16000 /dev/zero > "$0/filler" 2>/dev/null; \
            "$1" sync --board "$2"; status=$?; ls -a "$0"/events/*/*/* 2>/dev/null | grep -c '^\\.pm-' ; exit $status
            """
        let full = try pm.run(
            ["--mount", "sh", "-c", script, share, PMBinary.path, me.board], ["PM_USER": "me"], binary: "/usr/bin/unshare")
        #expect(full.status == 74, "\(full.status): \(full.stderr)")
        #expect(full.stderr.contains("no space left"), "\(full.stderr)")
        #expect(!full.stdout.contains("\n1\n"), "no temporary file left: \(full.stdout)")
        let sync = try me.run(["sync"])
        #expect(sync.status == 0 && sync.stdout.contains("sent: 40"), "\(sync.stdout)\(sync.stderr)")
    }
}
