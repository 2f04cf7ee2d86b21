import Foundation
import PMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `pm remote`, `pm sync`, `pm status` through the binary, with real folders
/// and real git (DESIGN.md §9).
@Suite struct SyncEndToEndTests {
    /// One person's copy: their own board path and user, the real clock.
    struct Copy {
        var pm: PMBinary
        var board: String
        var user: String

        @discardableResult
        func run(_ arguments: [String], _ extra: [String: String] = [:]) throws -> Run {
            try pm.run(arguments + ["--board", board], extra.merging(["PM_USER": user]) { new, _ in new })
        }

        func id(_ arguments: [String]) throws -> String {
            try run(arguments).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        var bytes: Data? { FileManager.default.contents(atPath: board) }

        /// The board file once brought up to date with its log (`pm
        /// checkpoint`): two copies that converged hold the same bytes.
        var folded: Data? {
            _ = try? run(["checkpoint"])
            return bytes
        }
    }

    func copies(_ pm: PMBinary, _ names: [String]) -> [Copy] {
        names.map { Copy(pm: pm, board: pm.home.file("\($0)/board.json"), user: $0) }
    }

    func livePM() -> PMBinary {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        return pm
    }

    /// Two people sharing a folder remote; the first has added `title` and synced.
    func sharedFolder(first title: String) throws -> (pm: PMBinary, share: String, a: Copy, b: Copy) {
        let pm = livePM()
        let share = pm.home.file("share")
        let people = copies(pm, ["camille", "ji-woo"])
        for person in people { try person.run(["remote", "add", share]) }
        try people[0].run(["add", title])
        try people[0].run(["sync"])
        return (pm, share, people[0], people[1])
    }

    @Test func twoCopiesSyncThroughAFolder() throws {
        let pm = livePM()
        let share = pm.home.file("share")
        let people = copies(pm, ["camille", "ji-woo"])
        for person in people {
            let added = try person.run(["remote", "add", share])
            #expect(added.status == 0 && added.stdout.contains("(folder)"), "\(added.stderr)")
        }
        let (a, b) = (people[0], people[1])
        let shared = try a.id(["add", "Plan the offsite"])
        #expect(try a.run(["sync"]).stdout.contains("sent: 1"))
        #expect(try b.run(["sync"]).stdout.contains("received: 1"))
        try a.run(["edit", shared, "--body", "From Camille"])
        try b.run(["move", shared, "doing"])
        try b.run(["edit", shared, "--title", "Offsite in Lyon"])
        try a.run(["edit", shared, "--title", "Offsite in Seoul"])
        for person in [a, b, a] { #expect(try person.run(["sync"]).status == 0) }
        #expect(a.folded == b.folded, "byte-identical boards")
        let status = try JSONSerialization.jsonObject(with: Data(try a.run(["status", "--json"]).stdout.utf8)) as? [String: Any]
        #expect(status?["waiting"] as? Int == 0)
        #expect((status?["conflicts"] as? [[String: Any]])?.count == 1, "the two titles are a conflict to resolve")
        #expect((status?["remote"] as? [String: Any])?["reachable"] as? Bool == true)
        let list = try a.run(["list"]).stdout
        #expect(list.contains("Last sync") && list.contains("0 changes waiting"), "\(list)")
        // The remote holds one folder of segments per replica, each written by its replica alone.
        let remote = RemoteEvents(folder: share + "/events")
        let entries = try FileManager.default.contentsOfDirectory(atPath: share + "/events")
        #expect(entries.count == 2 && remote.replicas.count == 2, "\(entries)")
        for replica in remote.replicas {
            let lines = remote.text(of: replica).split(separator: "\n")
            #expect(!lines.isEmpty && lines.allSatisfy { $0.contains("\"replica\":\"\(replica)\"") })
        }
        // Syncing again changes nothing.
        let before = a.bytes
        #expect(try a.run(["sync"]).stdout.contains("received: 0, sent: 0"))
        #expect(a.bytes == before)
    }

    /// A folder that disappears (an unmounted share): sync says offline with
    /// the changes waiting and exits 75 at once; every other command works.
    @Test func aVanishedFolderIsOfflineAndNothingIsLost() throws {
        let pm = livePM()
        let share = pm.home.file("share")
        let (a, b) = (copies(pm, ["camille", "ji-woo"])[0], copies(pm, ["camille", "ji-woo"])[1])
        try a.run(["remote", "add", share])
        try b.run(["remote", "add", share])
        try a.run(["add", "Before"])
        try a.run(["sync"])
        try FileManager.default.moveItem(atPath: share, toPath: share + ".unmounted")
        let start = Date()
        try a.run(["add", "Offline one"])
        try a.run(["add", "Offline two"])
        #expect(Date().timeIntervalSince(start) < 5, "adds never wait on the network")
        for (language, words) in [
            ("en_US.UTF-8", "2 changes wait to be sent"), ("fr_FR.UTF-8", "2 modifications attendent"),
            ("ko_KR.UTF-8", "보낼 변경 2개"),
        ] {
            let begin = Date()
            let sync = try a.run(["sync"], ["LANG": language])
            #expect(sync.status == 75 && sync.stderr.contains(words), "\(language): \(sync.stderr)")
            #expect(Date().timeIntervalSince(begin) < 5)
        }
        #expect(!FileManager.default.fileExists(atPath: share), "pm never recreates a vanished share")
        // At 80 columns the offline state comes first and the footer wraps: no language loses the word.
        for (language, word) in [("en_US.UTF-8", "Offline since"), ("fr_FR.UTF-8", "Hors ligne depuis"), ("ko_KR.UTF-8", "오프라인")]
        {
            let list = try a.run(["list"], ["LANG": language, "COLUMNS": "80"]).stdout
            let footer = list.split(separator: "\n").drop { !$0.contains(word) }
            #expect(footer.first?.contains(word) == true && footer.contains { $0.contains("2") }, "\(language): \(list)")
            #expect(list.split(separator: "\n").allSatisfy { !$0.hasSuffix("…") }, "\(language): nothing cut: \(list)")
        }
        try FileManager.default.moveItem(atPath: share + ".unmounted", toPath: share)
        #expect(try a.run(["sync"]).stdout.contains("sent: 2"))
        try b.run(["sync"])
        let titles = try b.run(["list", "--json"]).stdout
        #expect(titles.contains("Offline one") && titles.contains("Offline two") && titles.contains("Before"))
    }

    /// Anyone with write access to the share can put anything there: the good
    /// events still sync, the rest is left out and named, nothing reaches the terminal raw.
    @Test func aHostileRemoteCannotHurtTheBoard() throws {
        let (_, share, _, b) = try sharedFolder(first: "Genuine")
        let events = share + "/events"
        let remote = RemoteEvents(folder: events)
        let camille = try #require(remote.replicas.first)
        let camilleFile = try #require(remote.segments(of: camille).first)
        let genuine = try String(contentsOfFile: camilleFile, encoding: .utf8)
        let line = try #require(genuine.split(separator: "\n").first.map(String.init))
        func forged(_ id: String, _ change: (String) -> String) -> String {
            change(line.replacingOccurrences(of: #""id":"[0-9a-f-]{36}""#, with: "\"id\":\"\(id)\"", options: .regularExpression))
        }
        // A file named for another replica that claims Camille's replica id.
        let impostor = "99999999-0000-4000-8000-000000000009"
        let claims = forged("22222222-0000-4000-8000-000000000001") { $0.replacingOccurrences(of: "Genuine", with: "Impostor") }
        let future = forged("22222222-0000-4000-8000-000000000002") {
            $0.replacingOccurrences(of: "Genuine", with: "From the future").replacingOccurrences(
                of: #""hlc":\[\d+"#, with: "\"hlc\":[253402300799000", options: .regularExpression)
        }
        let escape = forged("22222222-0000-4000-8000-000000000003") {
            $0.replacingOccurrences(of: "Genuine", with: "\\u001b[2J\\u001b]0;pwned\\u0007")
        }
        try Data((claims + "\n").utf8).write(to: URL(fileURLWithPath: events + "/\(impostor).jsonl"))
        let huge = forged("22222222-0000-4000-8000-000000000004") {
            $0.replacingOccurrences(of: "Genuine", with: String(repeating: "h", count: 100_000))
        }
        try Data((genuine + future + "\n" + escape + "\n" + "not json at all\n" + huge + "\n").utf8).write(
            to: URL(fileURLWithPath: camilleFile))
        try FileManager.default.createSymbolicLink(
            atPath: events + "/33333333-0000-4000-8000-000000000003.jsonl", withDestinationPath: "/etc/passwd")
        let sync = try b.run(["sync"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stdout.contains("received: 1"), "only the genuine event: \(sync.stdout)")
        #expect(sync.stderr.contains("Left out 4 lines") && sync.stderr.contains("Left out 1 line"), "\(sync.stderr)")
        #expect(!sync.stderr.contains("\u{1B}") && !sync.stdout.contains("\u{1B}"))
        let list = try b.run(["list"]).stdout
        #expect(list.contains("Genuine") && !list.contains("Impostor") && !list.contains("future") && !list.contains("pwned"))
        // A remote that holds another board: refused, nothing changed.
        let before = b.bytes
        try Data("{\"board\": \"44444444-0000-4000-8000-000000000004\", \"format\": 1}\n".utf8).write(
            to: URL(fileURLWithPath: share + "/pm-board.json"))
        let other = try b.run(["sync"], ["LANG": "fr_FR.UTF-8"])
        #expect(other.status == 65 && other.stderr.contains("un autre tableau"), "\(other.stderr)")
        #expect(b.bytes == before)
    }

    /// A planted FIFO or link where pm reads or writes on the remote: refused
    /// at once (exit 65), never followed, never waited on.
    @Test(arguments: ["fifo", "link"])
    func plantedSpecialFilesOnTheRemoteAreRefused(kind: String) throws {
        let pm = livePM()
        let share = pm.home.file("share")
        let copy = copies(pm, ["camille"])[0]
        try copy.run(["remote", "add", share])
        try copy.run(["add", "Mine"])
        try copy.run(["sync"])
        let outside = pm.home.file("outside")
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        if kind == "fifo" {
            try FileManager.default.removeItem(atPath: share + "/pm-board.json")
            #expect(mkfifo(share + "/pm-board.json", 0o644) == 0)
        } else {
            try FileManager.default.removeItem(atPath: share + "/events")
            try FileManager.default.createSymbolicLink(atPath: share + "/events", withDestinationPath: outside)
        }
        try copy.run(["add", "Another"])
        let start = Date()
        let run = try copy.run(["sync"])
        #expect(run.status == 65 && run.stderr.contains("cannot be used"), "\(run.stderr)")
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty, "nothing written through the link")
    }

    /// Sync tools' conflicted copies are recognised by content, merged and moved aside, never deleted.
    @Test func conflictedCopiesAreMergedAndMovedAside() throws {
        let (_, share, a, b) = try sharedFolder(first: "First")
        let events = share + "/events"
        let remote = RemoteEvents(folder: events)
        let stem = try #require(remote.replicas.first)
        // Camille's other machine wrote the same segment: the sync tools kept
        // both under other names, and a copy of an older pm's whole file too.
        try a.run(["add", "Second"])
        try a.run(["add", "Third"])
        try a.run(["sync"])
        let segment = try #require(remote.segments(of: stem).last)
        let full = try String(contentsOfFile: segment, encoding: .utf8)
        let lines = full.split(separator: "\n")
        #expect(lines.count == 2)
        try FileManager.default.removeItem(atPath: segment)
        let inside = String(segment.dropLast(".jsonl".count))
        try Data((lines[0] + "\n").utf8).write(to: URL(fileURLWithPath: inside + ".sync-conflict-20261122-101010-ABCDEF1.jsonl"))
        try Data(full.utf8).write(to: URL(fileURLWithPath: inside + " (Ji-woo's conflicted copy 2026-11-22).jsonl"))
        try Data(full.utf8).write(to: URL(fileURLWithPath: events + "/\(stem).sync-conflict-20261122-101010-ABCDEF1.jsonl"))
        let sync = try b.run(["sync"])
        #expect(sync.status == 0 && sync.stdout.contains("received: 3"), "\(sync.stdout)\(sync.stderr)")
        #expect(sync.stdout.contains("sync-conflict") && sync.stdout.contains("moved it to aside/"))
        let aside = try FileManager.default.contentsOfDirectory(atPath: share + "/aside")
        #expect(aside.count == 3, "\(aside)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: events) == [stem], "only Camille's own folder is left")
        let left = (FileManager.default.enumerator(atPath: events)?.allObjects as? [String]) ?? []
        #expect(!left.contains { $0.contains("conflict") }, "\(left)")
        // Camille's copy finds its segment gone and publishes again what the
        // remote lacks (its first change is still there, in its first segment).
        let again = try a.run(["sync"])
        #expect(again.stdout.contains("sent: 2"), "\(again)")
        #expect(remote.text(of: stem).contains("Third"))
        let list = try b.run(["list"]).stdout
        #expect(list.contains("First") && list.contains("Second"))
    }

    /// Git: a bare repository; two clones syncing at the same moment both
    /// land (a rejected push is retried after a fetch); a plain clone of the
    /// branch pulls without a conflict.
    @Test func twoCopiesSyncThroughGitAndAPlainPullNeverConflicts() throws {
        let pm = livePM()
        let bare = pm.home.file("remote.git")
        _ = try runGit(["init", "-q", "--bare", bare])
        let people = copies(pm, ["camille", "ji-woo", "sam"])
        try people[0].run(["remote", "add", bare])
        try people[1].run(["remote", "add", "file://" + bare])
        try people[2].run(["remote", "add", bare])
        try people[0].run(["add", "Seed"])
        #expect(try people[0].run(["sync"]).status == 0)
        // Joining: a first sync takes the board from the remote.
        for person in people.dropFirst() { #expect(try person.run(["sync"]).stdout.contains("received: 1")) }
        let plain = pm.home.file("plain")
        _ = try runGit(["clone", "-q", "-b", "pm-board", bare, plain])
        for (n, person) in people.enumerated() { try person.run(["add", "From \(person.user) \(n)"]) }
        let lock = NSLock()
        nonisolated(unsafe) var failures: [String] = []
        DispatchQueue.concurrentPerform(iterations: people.count) { index in
            let run = try? people[index].run(["sync"])
            if run?.status != 0 { lock.withLock { failures.append(run?.stderr ?? "no run") } }
        }
        #expect(failures.isEmpty, "\(failures)")
        for person in people { try person.run(["sync"]) }
        #expect(people[0].folded == people[1].folded && people[1].folded == people[2].folded)
        let titles = try people[2].run(["list", "--json"]).stdout
        #expect(["Seed", "From camille 0", "From ji-woo 1", "From sam 2"].allSatisfy(titles.contains))
        let pull = try runGit(["-C", plain, "pull", "-q", "--no-rebase"])
        #expect(pull.0 == 0, "a plain git pull: \(pull.1)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: plain + "/events").count == 3)
        // The branch's history reads well to people: each commit by its author, in plain words.
        let log = pm.home.file("log.txt")
        _ = try runGit(["-C", plain, "log", "--format=%an|%s", "--output=" + log])
        let history = try String(contentsOfFile: log, encoding: .utf8)
        for person in people { #expect(history.contains("\(person.user)|Sent 1 change\n"), "\(history)") }
        #expect(!history.contains("(s)") && !history.contains("|pm:"), "\(history)")
    }

    /// A git remote nobody answers at: offline within seconds, exit 75.
    @Test func anUnreachableGitRemoteIsOfflineQuickly() throws {
        let pm = livePM()
        let copy = copies(pm, ["camille"])[0]
        try copy.run(["remote", "add", "git://127.0.0.1:9/nothing.git"])
        try copy.run(["add", "Waiting"])
        let start = Date()
        let sync = try copy.run(["sync"])
        #expect(sync.status == 75 && sync.stderr.contains("1 change waits"), "\(sync.stderr)")
        #expect(Date().timeIntervalSince(start) < 5)
        let status = try copy.run(["status"]).stdout
        #expect(status.contains("not reachable now"), "\(status)")
    }

    /// A git that hangs (a dead connection) and has started a helper of its
    /// own, as git does with ssh: the time-out ends both, and pm is offline.
    @Test func aHangingGitIsStoppedWithWhatItStarted() throws {
        var pm = livePM()
        let bin = pm.home.file("fakebin")
        let marker = pm.home.file("helper.pid")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        // Local git commands run for real; talking to the remote hangs.
        let script = """
            #!/bin/sh
            case " $* " in
              *" ls-remote "*|*" fetch "*|*" push "*) sleep 300 & echo $! > \(marker); wait ;;
              *) exec /usr/bin/git "$@" ;;
            esac

            """
        try writeExecutable(Data(script.utf8), to: bin + "/git")
        pm.environment["PATH"] = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let copy = copies(pm, ["camille"])[0]
        try copy.run(["remote", "add", "https://example.invalid/board.git"])
        try copy.run(["add", "Waiting"])
        let start = Date()
        let sync = try copy.run(["sync"])
        #expect(sync.status == 75 && sync.stderr.contains("1 change waits"), "\(sync.stderr)")
        // Within git's time limit (a helper left behind would hold pm's output open).
        #expect(Date().timeIntervalSince(start) < 20)
        let text = try String(contentsOfFile: marker, encoding: .utf8)
        let helper = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        // Gone (or a zombie nobody reaps yet): never still running. The
        // SIGKILL pm sent its group is delivered when the helper next runs,
        // which on a loaded machine can be a moment after pm returned: wait on
        // its state, not on time.
        func running() -> Bool {
            guard kill(helper, 0) == 0 else { return false }
            let state = (try? String(contentsOfFile: "/proc/\(helper)/stat", encoding: .utf8)) ?? ""
            return !state.contains(") Z ")
        }
        var alive = running()
        for _ in 0..<100 where alive {
            usleep(50_000)
            alive = running()
        }
        #expect(!alive, "the hung git's helper \(helper) still runs")
        if alive { kill(helper, SIGKILL) }
    }
}

extension SyncEndToEndTests {
    /// Three people change the board offline in random ways (adds, edits of
    /// the same and of different fields, moves, deletes, undos, redos) and
    /// sync in random orders and groupings, through a real folder or a real
    /// git repository: every copy ends byte-identical, every title anyone
    /// wrote is shown, kept as a conflict or in the history, and syncing
    /// again changes nothing.
    @Test(arguments: ["folder", "git"])
    func threeCopiesChangingOfflineConverge(kind: String) throws {
        let pm = livePM()
        let remote = pm.home.file(kind == "git" ? "remote.git" : "share")
        if kind == "git" { try runGit(["init", "-q", "--bare", remote]) }
        let people = copies(pm, ["camille", "ji-woo", "sam"])
        for person in people { try person.run(["remote", "add", remote]) }
        try people[0].run(["add", "Kickoff"])
        for person in people { #expect(try person.run(["sync"]).status == 0) }
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededGenerator(seed: seed)
        var written: [String] = ["Kickoff"]
        for step in 0..<36 {
            let person = people[Int.random(in: 0..<people.count, using: &random)]
            let list =
                try JSONSerialization.jsonObject(with: Data(try person.run(["list", "--json"]).stdout.utf8)) as? [[String: Any]]
                ?? []
            let target = list.randomElement(using: &random)?["id"] as? String
            let title = ["Plan", "Tâche \(step)", "계획 \(step)", "Ta\u{302}che"].randomElement(using: &random)!
            var arguments: [String]
            switch (Int.random(in: 0..<9, using: &random), target) {
            case (0, _), (_, nil): arguments = ["add", title]
            case (1, let id?), (2, let id?): arguments = ["edit", id, "--title", title]
            case (3, let id?): arguments = ["edit", id, "--body", "note \(step)"]
            case (4, let id?): arguments = ["move", id, ["todo", "doing", "done"].randomElement(using: &random)!]
            case (5, let id?): arguments = ["delete", id]
            case (6, _): arguments = ["undo"]
            case (7, _): arguments = ["redo"]
            default: arguments = ["sync"]
            }
            let run = try person.run(arguments)
            if run.status == 0, arguments.count > 2, arguments[0] == "add" || arguments[2] == "--title" {
                written.append(arguments[0] == "add" ? arguments[1] : arguments[3])
            }
            if Int.random(in: 0..<5, using: &random) == 0 {
                for other in people.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)) {
                    #expect(try other.run(["sync"]).status == 0, "seed \(seed)")
                }
            }
        }
        for _ in 0..<2 { for person in people.shuffled(using: &random) { #expect(try person.run(["sync"]).status == 0) } }
        let boards = people.map(\.folded)
        #expect(boards[0] != nil && boards[0] == boards[1] && boards[1] == boards[2], "seed \(seed): the copies differ")
        let history = try people[0].run(["history", "--limit", "100000", "--json"]).stdout
        let board = String(decoding: boards[0] ?? Data(), as: UTF8.self)
        for title in written {
            let json = String(decoding: try JSONSerialization.data(withJSONObject: [title]), as: UTF8.self).dropFirst().dropLast()
            #expect(history.contains(json) || board.contains(json), "seed \(seed): '\(title)' was lost")
        }
        #expect(try people[1].run(["sync"]).stdout.contains("received: 0, sent: 0"))
        #expect(people[1].bytes == boards[1], "syncing again changes nothing")
    }
}

/// A `git daemon` on loopback serving a bare repository, pushes allowed.
final class GitDaemon {
    let base: String
    let port: Int
    private var process: ChildProcess?

    init(base: String) {
        self.base = base
        port = Int.random(in: 20_000..<60_000)
    }

    var url: String { "git://127.0.0.1:\(port)/remote.git" }

    /// git-daemon itself, not `git daemon` (which runs it as a child that
    /// would outlive stopping the parent).
    static let executable: String = {
        let output = (try? runChild("/usr/bin/env", ["git", "--exec-path"]))?.stdout ?? Data()
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) + "/git-daemon"
    }()

    func start() throws {
        process = try ChildProcess(
            Self.executable,
            [
                "--reuseaddr", "--base-path=\(base)", "--export-all", "--enable=receive-pack", "--port=\(port)",
                "--listen=127.0.0.1", base,
            ], stdout: .discard, stderr: .discard)
        // Ready when it answers.
        for _ in 0..<100 {
            if try runGit(["ls-remote", url]).0 == 0 { break }
            usleep(50_000)
        }
    }

    func stop() {
        // git-daemon waits for its connections on SIGTERM: a lost server is SIGKILL.
        process?.send(SIGKILL)
        process?.wait()
        process = nil
    }

    deinit { stop() }
}

extension SyncEndToEndTests {
    /// A remote served by `git daemon` that stops (offline: exit 75 within
    /// 5 s, the count waiting, nothing lost) and starts again (it all goes).
    @Test func aGitDaemonThatStopsAndStartsAgain() throws {
        let pm = livePM()
        try runGit(["init", "-q", "--bare", pm.home.file("remote.git")])
        let daemon = GitDaemon(base: pm.home.path)
        try daemon.start()
        let people = copies(pm, ["camille", "ji-woo"])
        for person in people { try person.run(["remote", "add", daemon.url]) }
        try people[0].run(["add", "Online"])
        #expect(try people[0].run(["sync"]).status == 0)
        daemon.stop()
        try people[0].run(["add", "Offline"])
        let start = Date()
        let offline = try people[0].run(["sync"], ["LANG": "fr_FR.UTF-8"])
        #expect(offline.status == 75 && offline.stderr.contains("1 modification attend"), "\(offline.stderr)")
        #expect(Date().timeIntervalSince(start) < 5)
        try daemon.start()
        #expect(try people[0].run(["sync"]).stdout.contains("sent: 1"))
        #expect(try people[1].run(["sync"]).stdout.contains("received: 2"))
        #expect(people[0].folded == people[1].folded)
    }

    /// `pm sync --watch`: a change here reaches the other copy without
    /// anyone running sync; Ctrl-C (SIGINT) ends it cleanly.
    @Test func watchSyncsChangesUntilInterrupted() throws {
        let pm = livePM()
        let share = pm.home.file("share")
        let people = copies(pm, ["camille", "ji-woo"])
        for person in people { try person.run(["remote", "add", share]) }
        try people[0].run(["add", "First"])
        try people[0].run(["sync"])
        try people[1].run(["sync"])
        let watcher = try ChildProcess(
            PMBinary.path, ["sync", "--watch", "--board", people[1].board],
            environment: pm.environment.merging(["PM_USER": "ji-woo", "PM_SYNC_INTERVAL": "0.5"]) { _, new in new },
            stderr: .discard)
        try people[1].run(["add", "Made while watching"])
        try people[0].run(["add", "From Camille"])
        var seen = false
        for _ in 0..<100 {
            usleep(100_000)
            try people[0].run(["sync"])
            let mine = try people[0].run(["list", "--json"]).stdout
            let theirs = try people[1].run(["list", "--json"]).stdout
            if mine.contains("Made while watching") && theirs.contains("From Camille") {
                seen = true
                break
            }
        }
        #expect(seen, "the watcher carried both changes")
        watcher.send(SIGINT)
        let ended = watcher.wait()
        #expect(ended.status == 0)
        let text = String(decoding: ended.stdout, as: UTF8.self)
        #expect(text.contains("Press Ctrl-C to stop") && text.contains("Synced with"))
    }
}

/// Runs git with a clean identity; returns its status and error output.
@discardableResult
func runGit(_ arguments: [String]) throws -> (Int32, String) {
    var environment = ProcessInfo.processInfo.environment
    environment["GIT_AUTHOR_NAME"] = "test"
    environment["GIT_AUTHOR_EMAIL"] = "test@localhost"
    environment["GIT_COMMITTER_NAME"] = "test"
    environment["GIT_COMMITTER_EMAIL"] = "test@localhost"
    let child = try runChild("/usr/bin/env", ["git"] + arguments, environment: environment, stdout: .discard)
    return (child.status, String(decoding: child.stderr, as: UTF8.self))
}
