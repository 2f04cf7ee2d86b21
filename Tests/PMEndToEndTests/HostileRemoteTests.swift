import Foundation
import PMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A teammate's bytes are an attacker's (RELIABILITY.md, "bytes from
/// elsewhere"): whatever a remote holds, every command keeps working, pm
/// never writes what it would refuse, and nothing outside pm's files moves.
@Suite struct HostileRemoteTests {
    typealias Copy = SyncEndToEndTests.Copy

    /// Two people on a folder remote; each has added a task and synced, so
    /// each has a file on the remote: (share, camille, ji-woo, camille's
    /// replica, ji-woo's replica, a genuine event line as a dictionary).
    struct Team {
        var pm: PMBinary
        var share: String
        var a: Copy
        var b: Copy
        var replicaA: String
        var replicaB: String
        var genuine: [String: Any]
        var events: String { share + "/events" }
        /// A teammate on an older pm (a name-based replica id, unsigned
        /// events): the one whose file can still hold anything. A signed
        /// replica's file cannot: an event without its signature is refused
        /// there first (ForwardingTests). Its copy was there before keys:
        /// its first change comes before the first signed one.
        let legacy = "3f32d949-fb8c-81c9-8d7a-454f0615b877"
        /// An unsigned copy that first writes after the copies began
        /// signing: the board leaves it out (issue 43, item 9).
        let newcomer = "5c0e1a7e-0b5e-8c1a-8d2e-6f7a8b9c0d1e"

        /// Appends `lines` to `name` in events/.
        func append(_ lines: [String], to name: String) throws {
            let path = events + "/" + name
            let old = FileManager.default.contents(atPath: path) ?? Data()
            try (old + Data(lines.map { $0 + "\n" }.joined().utf8)).write(to: URL(fileURLWithPath: path))
        }

        /// A line for an event like the genuine one (Camille's), from the
        /// older teammate and unsigned, changed by `change`.
        func line(_ change: (inout [String: Any]) -> Void) -> String {
            var event = genuine
            event["id"] = UUID().uuidString.lowercased()
            event["replica"] = legacy
            (event["key"], event["sig"]) = (nil, nil)
            change(&event)
            let data = (try? JSONSerialization.data(withJSONObject: event, options: [.sortedKeys])) ?? Data()
            return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\\/", with: "/")
        }
    }

    static func team(now: String? = nil) throws -> Team {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = now
        let share = pm.home.file("share")
        let people = ["camille", "ji-woo"].map { Copy(pm: pm, board: pm.home.file("\($0)/board.json"), user: $0) }
        for person in people { try person.run(["remote", "add", share]) }
        try people[0].run(["add", "Genuine"])
        try people[0].run(["sync"])
        let remote = RemoteEvents(folder: share + "/events")
        let before = Set(remote.replicas)
        try people[1].run(["sync"])
        try people[1].run(["add", "Ji-woo's"])
        let joined = try people[1].run(["sync"])
        try people[0].run(["sync"])
        let replicaA = try #require(before.first)
        let replicaB = try #require(Set(remote.replicas).subtracting(before).first, "\(joined)")
        let text = remote.text(of: replicaA)
        let first = try #require(text.split(separator: "\n").first)
        let genuine = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        let team = Team(
            pm: pm, share: share, a: people[0], b: people[1], replicaA: replicaA, replicaB: replicaB, genuine: genuine)
        // The older teammate's first change, from before keys: of a kind a
        // newer pm writes, so it shows nowhere.
        let clock = try #require(genuine["hlc"] as? [Int64])
        try team.append(
            [
                team.line {
                    $0["kind"] = "note"
                    $0["hlc"] = [clock[0] - 60_000, 0]
                    $0["fields"] = [String: Any]()
                }
            ], to: team.legacy + ".jsonl")
        for person in people { #expect(try person.run(["sync"]).stdout.contains("received: 1")) }
        return team
    }

    /// Every command a person or script runs: none may crash, and none may
    /// find a board or log it cannot read.
    static func everyCommandWorks(_ copy: Copy, _ note: String, id: String, sync: Bool = true) throws {
        let commands: [[String]] =
            [
                ["list"], ["list", "--json"], ["show", id], ["show", id, "--json"], ["history"], ["history", "--json"],
                ["status"], ["status", "--json"], ["export", "ics"], ["remind", "--all"], ["edit", id, "--body", "checked"],
                ["move", id, "doing"], ["undo"], ["redo"], ["add", "After"],
            ] + (sync ? [["sync"], ["list"]] : [])
        for arguments in commands {
            let run = try copy.run(arguments)
            #expect(run.status == 0 || run.status == 1, "\(note): \(arguments) → \(run.status): \(run.stderr)")
            #expect(!run.stderr.contains("Cannot read"), "\(note): \(arguments): \(run.stderr)")
        }
    }

    /// A field named like a key pm writes on a task (`conflicts`, `restored`,
    /// `id`, `updatedAt`, `overdue`) is left out; a clock whose counter is
    /// at its limit is taken, and the next change carries into the
    /// milliseconds instead of writing a clock pm refuses. Afterwards every
    /// command works — with `board.json` deleted too.
    @Test func reservedNamesAndAClockAtItsLimitNeverBrickTheBoard() throws {
        let team = try Self.team()
        let task = try #require(team.genuine["task"] as? String)
        let clock = try #require(team.genuine["hlc"] as? [Int64])
        var lines: [String] = []
        for name in ["conflicts", "restored", "id", "updatedAt", "overdue"] {
            lines.append(
                team.line {
                    $0["kind"] = "edited"
                    $0["hlc"] = [clock[0] + 1, 0]
                    $0["fields"] = [name: ["new": name == "restored" ? 1 : "x", "old": NSNull()]]
                })
        }
        // Near now, so that the next change here ticks after it.
        let counter = team.line {
            $0["kind"] = "edited"
            $0["hlc"] = [Int64(Date().timeIntervalSince1970 * 1000) + 60_000, 2_147_483_647]
            $0["fields"] = ["body": ["new": "From the edge", "old": ""]]
        }
        try team.append(lines + [counter], to: team.legacy + ".jsonl")
        let sync = try team.b.run(["sync"])
        #expect(sync.status == 0 && sync.stdout.contains("received: 1"), "\(sync.stdout)\(sync.stderr)")
        #expect(sync.stderr.contains("Left out 5 lines"), "\(sync.stderr)")
        try Self.everyCommandWorks(team.b, "reserved", id: String(task.prefix(8)))
        let log = try String(contentsOfFile: team.pm.home.file("ji-woo/board.events.jsonl"), encoding: .utf8)
        #expect(!log.contains(",2147483648]"), "a counter past what pm reads was written")
        #expect(try team.a.run(["sync"]).status == 0)
        #expect(try team.b.run(["sync"]).status == 0)
        #expect(try team.a.run(["list", "--json"]).stdout == (try team.b.run(["list", "--json"]).stdout))
        // (Sync after losing board.json is issue 20's: the board's id is not in the log yet.)
        try FileManager.default.removeItem(atPath: team.b.board)
        try Self.everyCommandWorks(team.b, "board.json deleted", id: String(task.prefix(8)), sync: false)
    }

    /// A file in events/ whose name is not a replica's id names nothing to
    /// check its events against: it is ignored and said, and the victim never
    /// republishes its events — even those claiming the victim's own replica.
    @Test func aFileNotNamedAfterAReplicaIsIgnoredAndNeverRepublished() throws {
        let team = try Self.team()
        let forged = [
            team.line {
                $0["replica"] = team.replicaB
                $0["title"] = "Forged as ji-woo"
                $0["task"] = UUID().uuidString.lowercased()
                $0["fields"] = [
                    "title": ["new": "Forged as ji-woo", "old": NSNull()], "state": ["new": "todo", "old": NSNull()],
                ]
            },
            team.line { $0["title"] = "Forged as camille" },
        ]
        for name in ["forged.jsonl", "notes.txt", "12345678-events.jsonl"] {
            try team.append(forged, to: name)
        }
        for language in ["en_US.UTF-8", "fr_FR.UTF-8", "ko_KR.UTF-8"] {
            let sync = try team.b.run(["sync"], ["LANG": language])
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(sync.stderr.contains("forged.jsonl") && sync.stderr.contains("notes.txt"), "\(language): \(sync.stderr)")
        }
        let list = try team.b.run(["list", "--json"]).stdout
        #expect(!list.contains("Forged"), "\(list)")
        try team.b.run(["add", "Mine again"])
        #expect(try team.b.run(["sync"]).stdout.contains("sent: 1"))
        let own = RemoteEvents(folder: team.events).text(of: team.replicaB)
        #expect(!own.contains("Forged") && own.contains("Mine again"), "\(own)")
        #expect(!(try team.a.run(["sync"]).stdout.isEmpty))
        #expect(!(try team.a.run(["list", "--json"]).stdout.contains("Forged")))
    }

    /// Wall times pm would never write (30 February, hour 25, no zone, year
    /// 0) and an id given twice with other content are left out: the ICS
    /// export holds only real dates, and history shows each change once.
    @Test func badTimesAndAnIDGivenTwiceAreLeftOut() throws {
        let team = try Self.team()
        let task = try #require(team.genuine["task"] as? String)
        let clock = try #require(team.genuine["hlc"] as? [Int64])
        var lines = ["2026-02-30T10:00:00.000Z", "2026-11-21T25:00:00.000Z", "2026-11-21T10:00:00", "0000-01-01T00:00:00.000Z"]
            .map { at in
                team.line {
                    $0["at"] = at
                    $0["kind"] = "edited"
                    $0["fields"] = ["due": ["new": "2026-12-01", "old": NSNull()]]
                }
            }
        let twice = UUID().uuidString.lowercased()
        for body in ["First telling", "Second telling"] {
            lines.append(
                team.line {
                    $0["id"] = twice
                    $0["kind"] = "edited"
                    $0["hlc"] = [clock[0] + 5, 0]
                    $0["fields"] = ["body": ["new": body, "old": ""]]
                })
        }
        lines.append(
            team.line {
                $0["kind"] = "edited"
                $0["fields"] = ["createdAt": ["new": "yesterday", "old": team.genuine["at"] ?? ""]]
            })
        try team.append(lines, to: team.legacy + ".jsonl")
        let sync = try team.b.run(["sync"])
        #expect(sync.status == 0 && sync.stdout.contains("received: 1"), "\(sync.stdout)\(sync.stderr)")
        #expect(sync.stderr.contains("Left out 6 lines"), "\(sync.stderr)")
        let show = try team.b.run(["show", String(task.prefix(8))]).stdout
        #expect(show.contains("First telling") && !show.contains("Second telling"))
        #expect(!show.contains("Dec 1"), "a change with a bad time was taken: \(show)")
        let history = try team.b.run(["history", "--json", "--limit", "100"]).stdout
        #expect(history.components(separatedBy: twice).count == 2, "the id is shown once: \(history)")
        let ics = try team.b.run(["export", "ics"])
        #expect(ics.status == 0 && !ics.stdout.contains("20260230") && !ics.stdout.contains("T25"))
    }

    /// A link planted where pm moves merged conflicted copies (`.pm-merged`
    /// beside a shared board) is never followed: the copy is merged and
    /// stays where it is, and a file of the same name in the folder the link
    /// points to is untouched. pm also never replaces a file already in
    /// `.pm-merged`.
    @Test func aPlantedLinkNeverMovesAFileOut() throws {
        let team = try Self.team()
        let folder = team.pm.home.file("ji-woo")
        let copy = folder + "/board.sync-conflict-20261122-101010-ABCDEF1.jsonl"
        try FileManager.default.copyItem(atPath: team.pm.home.file("camille/board.events.jsonl"), toPath: copy)
        try team.append([team.line { $0["title"] = "x" }], to: "unused")
        let outside = team.pm.home.file("victim")
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        let precious = outside + "/board.sync-conflict-20261122-101010-ABCDEF1.jsonl"
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: precious))
        try FileManager.default.createSymbolicLink(atPath: folder + "/.pm-merged", withDestinationPath: outside)
        let status = try team.b.run(["status"])
        #expect(status.status == 0 && status.stderr.contains("stays where it is"), "\(status.stderr)")
        #expect(try String(contentsOfFile: precious, encoding: .utf8) == "precious\n")
        #expect(FileManager.default.fileExists(atPath: copy))
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == [Self.fileName(precious)])
        // A real folder that already holds that name: the copy goes in beside it, nothing replaced.
        try FileManager.default.removeItem(atPath: folder + "/.pm-merged")
        try FileManager.default.createDirectory(atPath: folder + "/.pm-merged", withIntermediateDirectories: true)
        try Data("kept\n".utf8).write(to: URL(fileURLWithPath: folder + "/.pm-merged/" + Self.fileName(copy)))
        #expect(try team.b.run(["status"]).stderr.contains("moved it into .pm-merged"))
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder + "/.pm-merged").sorted()
        #expect(aside.count == 2, "\(aside)")
        #expect(try String(contentsOfFile: folder + "/.pm-merged/" + Self.fileName(copy), encoding: .utf8) == "kept\n")
    }

    static func fileName(_ path: String) -> String { String(path.split(separator: "/").last ?? "") }

    /// Runs pm under a memory limit (prlimit, util-linux): the address space
    /// a normal sync needs, far less than the files the remote claims to hold.
    static func limited(_ copy: Copy, _ arguments: [String], megabytes: Int) throws -> Run {
        try copy.pm.run(
            ["--as=\(megabytes << 20)", "--", PMBinary.path] + arguments + ["--board", copy.board],
            ["PM_USER": copy.user], binary: "/usr/bin/prlimit")
    }

    /// Sparse files of a gigabyte each (a few kilobytes on disk) on the remote
    /// and beside the board, and a file that grows while it is read: sync
    /// stays within a memory limit, reads what it may and says what it left
    /// out, still takes the genuine changes, and other commands stay fast.
    @Test func sparseAndGrowingFilesStayWithinAMemoryLimit() throws {
        let team = try Self.team()
        try team.a.run(["add", "Still arrives"])
        try team.a.run(["sync"])
        for n in 1...4 {
            let path = team.events + "/0000000\(n)-0000-4000-8000-000000000000.jsonl"
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            #expect(truncate(path, 1 << 30) == 0)
        }
        // A file that grows while it is read (up to 400 MB, then it stops).
        let growing = team.events + "/00000009-0000-4000-8000-000000000000.jsonl"
        #expect(FileManager.default.createFile(atPath: growing, contents: Data("{\"not\": \"an event\"}\n".utf8)))
        let writer = try ChildProcess(
            "/bin/sh", ["-c", "yes '{\"not\": \"an event\"}' | head -c 419430400 >> \"$0\"", growing])
        defer {
            writer.send(SIGTERM)
            writer.wait()
        }
        usleep(100_000)
        let beside = team.pm.home.file("ji-woo/board (conflicted copy 2026-11-22).json")
        #expect(FileManager.default.createFile(atPath: beside, contents: nil))
        #expect(truncate(beside, 1 << 30) == 0)
        let start = Date()
        let sync = try Self.limited(team.b, ["sync"], megabytes: 1024)
        #expect(sync.status == 0, "\(sync.status): \(sync.stderr)")
        #expect(sync.stdout.contains("received: 1"), "\(sync.stdout)")
        #expect(sync.stderr.contains("Stopped reading events/00000001"), "\(sync.stderr)")
        #expect(Date().timeIntervalSince(start) < 30)
        #expect(try team.b.run(["list", "--json"]).stdout.contains("Still arrives"))
        // The sparse copy beside the board is not a board: told from its first bytes, every time.
        let quick = Date()
        for _ in 0..<5 { #expect(try Self.limited(team.b, ["add", "Quick"], megabytes: 512).status == 0) }
        #expect(Date().timeIntervalSince(quick) < 10, "each command re-read the sparse copy")
        #expect(FileManager.default.fileExists(atPath: beside), "not a copy of this board: left where it is")
    }
}

/// What pm accepts from its own user, every copy accepts from the remote —
/// or pm refuses it at the keyboard too; "sent" only when the remote has it.
@Suite struct SymmetricAcceptanceTests {
    /// Text at every limit a person may type — a 200-character Korean title
    /// with emoji sequences, a 1,000-character body of stacked accents (a line
    /// of 70 KB), a tab and a newline, a Korean author name — reaches the
    /// other copy whole (an earlier pm left out every line past 64 KB).
    @Test func whatAPersonMayTypeEveryCopyTakes() throws {
        let team = try HostileRemoteTests.team()
        let title = String(repeating: "계획👩‍👩‍👧‍👦", count: 66) + "끝끝"
        // 700 letters each under 50 accents (a 70 KB line), a tab, a newline, 298 Hangul.
        let body =
            String(repeating: "e" + String(repeating: "\u{301}", count: 50), count: 700) + "\t\n"
            + String(repeating: "줄", count: 298)
        let korean = ["PM_USER": "지우"]
        #expect(try team.a.run(["remote", "add", team.share], korean).status == 0)
        let add = try team.a.run(["add", title, "--body", body, "--due", "2026-12-31"], korean)
        #expect(add.status == 0, "\(add.stderr)")
        let id = add.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try team.a.run(["edit", id, "--title", String(repeating: "é", count: 200)], korean)
        let sent = try team.a.run(["sync"], korean)
        #expect(sent.stdout.contains("sent: 2"), "\(sent.stdout)\(sent.stderr)")
        let received = try team.b.run(["sync"])
        #expect(received.status == 0 && received.stdout.contains("received: 2"), "\(received.stdout)\(received.stderr)")
        #expect(!received.stderr.contains("Left out"), "\(received.stderr)")
        #expect(try team.a.run(["list", "--json"]).stdout == (try team.b.run(["list", "--json"]).stdout))
        #expect(try team.b.run(["history", "--task", id]).stdout.contains("지우"))
    }

    /// An author name no other copy would take (control or bidi characters,
    /// past 200 characters) is refused here, with the reason, in every
    /// language, and nothing on disk changes. (A change too large for one
    /// line cannot come through a command line: BoardStoreTests checks it.)
    @Test func aNameNoCopyWouldTakeIsRefusedAtTheKeyboard() throws {
        let pm = PMBinary()
        try pm.run(["add", "Existing"])
        let before = pm.boardBytes()
        let log = FileManager.default.contents(atPath: pm.home.file("board.events.jsonl"))
        for name in ["ji\u{1B}[31mwoo", "ji\u{202E}oow", String(repeating: "n", count: 201)] {
            for language in ["en_US.UTF-8", "fr_FR.UTF-8", "ko_KR.UTF-8"] {
                let run = try pm.run(["add", "By a strange name"], ["PM_USER": name, "LANG": language])
                #expect(run.status == 64 && run.stderr.contains("PM_USER"), "\(language): \(run.stderr)")
                #expect(!run.stderr.contains("\u{1B}") && !run.stderr.contains("\u{202E}"))
            }
        }
        #expect(pm.boardBytes() == before)
        #expect(FileManager.default.contents(atPath: pm.home.file("board.events.jsonl")) == log)
    }
}
