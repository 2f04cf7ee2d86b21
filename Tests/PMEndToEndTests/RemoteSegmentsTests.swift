import Foundation
import PMTestSupport
import Testing

/// A remote that grows with the changes, not with the syncs (DESIGN.md §9):
/// each sync publishes one immutable segment, a copy never reads a segment
/// twice, an older pm's whole files are still read, and what the remote
/// holds is still an attacker's.
@Suite struct RemoteSegmentsTests {
    typealias Copy = SyncEndToEndTests.Copy

    /// The bytes of every object file in a bare repository (loose and packed).
    static func objectBytes(_ repository: String) -> Int {
        let root = repository + "/objects"
        let found = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String]) ?? []
        return found.reduce(0) { total, name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: root + "/" + name)
            guard attributes?[.type] as? FileAttributeType == .typeRegular else { return total }
            return total + ((attributes?[.size] as? Int) ?? 0)
        }
    }

    /// A change and a sync, forty times over (what `pm sync --watch` does):
    /// the bare repository grows by about the change, not by the replica's
    /// whole file (an earlier pm rewrote it at every sync: 3–4 KB a change
    /// after forty, and growing).
    @Test func aSyncAfterEachChangeAddsAboutTheChange() throws {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        let bare = pm.home.file("team.git")
        _ = try runGit(["init", "-q", "--bare", bare])
        let me = Copy(pm: pm, board: pm.home.file("me/board.json"), user: "camille")
        let other = Copy(pm: pm, board: pm.home.file("other/board.json"), user: "ji-woo")
        for person in [me, other] { #expect(try person.run(["remote", "add", bare]).status == 0) }
        for n in 1...15 {
            try me.run(["add", "Seed task \(n)", "--body", "A body of the length of a sentence or two on a card."])
        }
        #expect(try me.run(["sync"]).status == 0)
        let id = try me.id(["add", "Moved about"])
        let before = Self.objectBytes(bare)
        let changes = 40
        for n in 1...changes {
            if n % 2 == 0 {
                try me.run(["move", id, n % 4 == 0 ? "doing" : "todo"])
            } else {
                try me.run(["add", "Change \(n)", "--due", "+\(n % 9)d"])
            }
            #expect(try me.run(["sync"]).stdout.contains("sent: "))
            if n % 10 == 0 { #expect(try other.run(["sync"]).status == 0) }
        }
        let perChange = (Self.objectBytes(bare) - before) / changes
        #expect(perChange < 2048, "\(perChange) bytes per change")
        #expect(try other.run(["sync"]).status == 0)
        #expect(me.folded == other.folded)
    }

    /// A file an older pm wrote (a replica's whole log in
    /// `events/<replica>.jsonl`) is still read, and read again when it
    /// grows. (Its copy was there before keys: its first change comes
    /// before the first signed one.)
    @Test func anOlderPmsWholeFileIsStillRead() throws {
        let team = try HostileRemoteTests.team()
        let older = UUID().uuidString.lowercased()
        let clock = try #require(team.genuine["hlc"] as? [Int64])
        var minute: Int64 = 0
        func line(_ title: String) -> String {
            minute += 1
            return team.line {
                $0["hlc"] = [clock[0] - 600_000 + minute * 60_000, 0]
                $0["replica"] = older
                $0["task"] = UUID().uuidString.lowercased()
                $0["fields"] = ["title": ["new": title, "old": NSNull()], "state": ["new": "todo", "old": NSNull()]]
                $0["seen"] = nil
            }
        }
        try team.append([line("From an older pm")], to: older + ".jsonl")
        let first = try team.b.run(["sync"])
        #expect(first.status == 0 && first.stdout.contains("received: 1"), "\(first.stdout)\(first.stderr)")
        try team.append([line("And another")], to: older + ".jsonl")
        #expect(try team.b.run(["sync"]).stdout.contains("received: 1"))
        let titles = try team.b.run(["list", "--json"]).stdout
        #expect(titles.contains("From an older pm") && titles.contains("And another"))
    }

    /// A segment never changes, so one whose bytes changed after it was
    /// read (a sync tool, a backup, or someone with write access) is read
    /// again, through the gate: what was put into it is refused and said,
    /// and a new segment is read as usual (issue 43).
    @Test func aSegmentChangedAfterItWasReadIsReadAgainThroughTheGate() throws {
        let team = try HostileRemoteTests.team()
        let remote = RemoteEvents(folder: team.events)
        let read = try #require(remote.segments(of: team.replicaA).first)
        let planted = team.line { $0["title"] = "Planted later" }
        try (try Data(contentsOf: URL(fileURLWithPath: read)) + Data((planted + "\nnot json\n").utf8)).write(
            to: URL(fileURLWithPath: read))
        try team.a.run(["add", "Published later"])
        #expect(try team.a.run(["sync"]).stdout.contains("sent: 1"))
        let sync = try team.b.run(["sync"])
        #expect(sync.status == 0 && sync.stdout.contains("received: 1"), "\(sync.stdout)\(sync.stderr)")
        #expect(sync.stderr.contains("Left out 2 lines"), "\(sync.stderr)")
        let titles = try team.b.run(["list", "--json"]).stdout
        #expect(titles.contains("Published later") && !titles.contains("Planted later"))
    }

    /// A board and log put back from a backup older than the last sync: the
    /// next sync reads every segment again, so what the backup lacks comes back.
    @Test func aBoardRestoredFromABackupGetsEverythingBack() throws {
        let team = try HostileRemoteTests.team()
        let log = team.pm.home.file("ji-woo/board.events.jsonl")
        let backup = (try #require(team.b.bytes), try Data(contentsOf: URL(fileURLWithPath: log)))
        for title in ["After the backup", "And after that"] {
            try team.a.run(["add", title])
            #expect(try team.a.run(["sync"]).status == 0)
            #expect(try team.b.run(["sync"]).stdout.contains("received: 1"))
        }
        try backup.0.write(to: URL(fileURLWithPath: team.b.board))
        try backup.1.write(to: URL(fileURLWithPath: log))
        #expect(!(try team.b.run(["list", "--json"]).stdout.contains("After the backup")))
        let sync = try team.b.run(["sync"])
        #expect(sync.status == 0 && sync.stdout.contains("received: 2"), "\(sync.stdout)\(sync.stderr)")
        #expect(try team.a.run(["sync"]).status == 0)
        #expect(team.a.folded == team.b.folded)
    }

    /// A replica's folder is the attacker's too: a link in place of it, a
    /// file that is no segment, a segment holding another replica's events,
    /// folders nested far down. Nothing is followed or believed, the rest is
    /// named, and the genuine segment still arrives.
    @Test func aReplicasFolderIsStillUntrusted() throws {
        let team = try HostileRemoteTests.team()
        let outside = team.pm.home.file("outside")
        try FileManager.default.createDirectory(atPath: outside + "/0/0", withIntermediateDirectories: true)
        let lure = team.line { $0["title"] = "Through a link" }
        try Data((lure + "\n").utf8).write(to: URL(fileURLWithPath: outside + "/0/0/1.jsonl"))
        let linked = UUID().uuidString.lowercased()
        try FileManager.default.createSymbolicLink(atPath: team.events + "/" + linked, withDestinationPath: outside)
        let folderA = team.events + "/" + team.replicaA
        try Data("notes\n".utf8).write(to: URL(fileURLWithPath: folderA + "/notes.txt"))
        // Ji-woo's events in Camille's folder, under a segment's name.
        let impostor = team.line {
            $0["replica"] = team.replicaB
            $0["title"] = "Claimed for ji-woo"
        }
        try FileManager.default.createDirectory(atPath: folderA + "/0/9", withIntermediateDirectories: true)
        try Data((impostor + "\n").utf8).write(to: URL(fileURLWithPath: folderA + "/0/9/9.jsonl"))
        let deep = folderA + "/" + Array(repeating: "1", count: 40).joined(separator: "/")
        try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
        try Data((team.line { $0["title"] = "Far down" } + "\n").utf8).write(to: URL(fileURLWithPath: deep + "/1.jsonl"))
        try team.a.run(["add", "Genuine and new"])
        #expect(try team.a.run(["sync"]).status == 0)
        for language in ["en_US.UTF-8", "fr_FR.UTF-8", "ko_KR.UTF-8"] {
            let sync = try team.b.run(["sync"], ["LANG": language])
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(sync.stderr.contains("notes.txt") && sync.stderr.contains("0/9/9.jsonl"), "\(language): \(sync.stderr)")
        }
        let titles = try team.b.run(["list", "--json"]).stdout
        #expect(titles.contains("Genuine and new"))
        for planted in ["Through a link", "Claimed for ji-woo", "Far down"] { #expect(!titles.contains(planted)) }
        #expect(FileManager.default.fileExists(atPath: outside + "/0/0/1.jsonl"), "nothing moved through the link")
    }

    /// Three people working offline at different times, syncing in
    /// different orders: `pm history` is newest first by time, and the same
    /// on every copy (an earlier pm listed arrival order: each copy its own).
    @Test func historyAfterSyncsIsInTimeOrderOnEveryCopy() throws {
        let pm = PMBinary()
        let share = pm.home.file("share")
        let people = ["camille", "ji-woo", "sam"].map { Copy(pm: pm, board: pm.home.file("\($0)/board.json"), user: $0) }
        for person in people { #expect(try person.run(["remote", "add", share]).status == 0) }
        #expect(try people[0].run(["add", "Start"], ["PM_NOW": "2026-11-24T08:00:00Z"]).status == 0)
        #expect(try people[0].run(["sync"], ["PM_NOW": "2026-11-24T08:00:00Z"]).status == 0)
        for person in people.dropFirst() { #expect(try person.run(["sync"], ["PM_NOW": "2026-11-24T08:00:00Z"]).status == 0) }
        // Minutes past 09:00 each person's changes are made at, offline.
        let minutes = [[5, 40, 41], [10, 30, 50], [1, 20, 45]]
        for (person, times) in zip(people, minutes) {
            for minute in times {
                let now = String(format: "2026-11-24T09:%02d:00Z", minute)
                #expect(try person.run(["add", "\(person.user) at \(minute)"], ["PM_NOW": now]).status == 0)
            }
        }
        for order in [[2, 0, 1, 2, 0, 1], [1, 2, 0]] {
            for index in order {
                let sync = try people[index].run(["sync"], ["PM_NOW": "2026-11-24T10:00:00Z"])
                #expect(sync.status == 0, "\(sync.stderr)")
            }
        }
        let expected = zip(people, minutes).flatMap { person, times in times.map { ($0, "\(person.user) at \($0)") } }
            .sorted { $0.0 > $1.0 }.map(\.1)
        var shown: [[String]] = []
        for person in people {
            let history = try person.run(["history", "--limit", "9", "--json"], ["PM_NOW": "2026-11-24T10:00:00Z"])
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]])
            shown.append(entries.compactMap { $0["title"] as? String })
        }
        #expect(shown[0] == expected, "\(shown[0])")
        #expect(shown[1] == shown[0] && shown[2] == shown[0])
        let text = try people[1].run(["history", "--limit", "2"], ["PM_NOW": "2026-11-24T10:00:00Z"]).stdout
        #expect(text.contains("ji-woo at 50") && text.contains("sam at 45"), "\(text)")
    }
}
