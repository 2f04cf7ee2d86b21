import Foundation
import PMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif
/// Clocks (DESIGN.md §9): a clock orders changes, never decides which are
/// taken. A copy follows a teammate's fast clock up to seven days, so a change
/// made after seeing theirs comes after it; only a clock thirty days ahead of
/// the reader's is left out (for now). So a teammate two days ahead neither
/// wins against a change made after theirs nor makes anyone a few minutes
/// behind leave out a real change.
@Suite struct ClockTests {
    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    @Test func aTeammateTwoDaysAheadNeitherWinsNorLeavesChangesOut() throws {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        let share = pm.home.file("share")
        let names = ["hana", "max", "chloe"]
        let people = names.map { SyncEndToEndTests.Copy(pm: pm, board: pm.home.file("\($0)/board.json"), user: $0) }
        // Hana runs on the real clock; Max's is two days fast; Chloe's five minutes slow.
        func clock(_ person: Int) -> [String: String] {
            switch person {
            case 1: return ["PM_NOW": Self.iso(Date().addingTimeInterval(2 * 86_400))]
            case 2: return ["PM_NOW": Self.iso(Date().addingTimeInterval(-300))]
            default: return [:]
            }
        }
        func run(_ person: Int, _ arguments: [String]) throws -> Run {
            try people[person].run(arguments, clock(person))
        }
        for person in 0..<3 { #expect(try run(person, ["remote", "add", share]).status == 0) }
        let id = try run(0, ["add", "Plan"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try run(0, ["sync"]).status == 0)
        for person in [1, 2] { #expect(try run(person, ["sync"]).stdout.contains("received: 1")) }
        #expect(try run(1, ["edit", id, "--title", "Max's title"]).status == 0)
        #expect(try run(1, ["sync"]).status == 0)
        #expect(try run(2, ["add", "Chloe's task"]).status == 0)
        let chloe = try run(2, ["sync"])
        #expect(chloe.stdout.contains("received: 1") && !chloe.stderr.contains("Left out"), "\(chloe.stdout)\(chloe.stderr)")
        // Hana sees Max's title, then changes it: hers comes after.
        #expect(try run(0, ["sync"]).stdout.contains("received: 2"))
        #expect(try run(0, ["edit", id, "--title", "Hana's, after Max's"]).status == 0)
        #expect(try run(0, ["sync"]).status == 0)
        let late = try run(2, ["sync"])
        #expect(late.stdout.contains("received: 1") && !late.stderr.contains("Left out"), "\(late.stdout)\(late.stderr)")
        // Concurrent edits of one field: both values kept, whoever's clock is fast.
        #expect(try run(1, ["edit", id, "--body", "Max's body"]).status == 0)
        #expect(try run(2, ["edit", id, "--body", "Chloe's body"]).status == 0)
        for _ in 0..<2 { for person in 0..<3 { #expect(try run(person, ["sync"]).status == 0) } }
        let boards = people.map(\.folded)
        #expect(boards[0] != nil && boards[0] == boards[1] && boards[1] == boards[2], "the copies differ")
        let shown = try run(2, ["show", id, "--json"]).stdout
        #expect(
            shown.contains("\"title\" : \"Hana's, after Max's\"") || shown.contains("\"title\": \"Hana's, after Max's\""),
            "\(shown)")
        #expect(shown.contains("Max's body") && shown.contains("Chloe's body"), "both bodies kept: \(shown)")
        #expect(try run(0, ["list", "--json"]).stdout.contains("Chloe's task"))
    }
}

extension ClockTests {
    /// A change made while this machine's clock ran forty days fast stays in
    /// this replica's file on the remote even after its board is restored
    /// from a backup that lacks it and the clock is put right: it is only
    /// not taken yet, never dropped.
    @Test func aChangeFromAFastClockIsNeverDroppedFromItsOwnFile() throws {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        let share = pm.home.file("share")
        let me = SyncEndToEndTests.Copy(pm: pm, board: pm.home.file("me/board.json"), user: "max")
        let fast = ["PM_NOW": Self.iso(Date().addingTimeInterval(40 * 86_400))]
        #expect(try me.run(["remote", "add", share]).status == 0)
        try me.run(["add", "Before"])
        #expect(try me.run(["sync"]).status == 0)
        let backup = try #require(me.bytes)
        let log = try #require(FileManager.default.contents(atPath: pm.home.file("me/board.events.jsonl")))
        try me.run(["add", "From forty days ahead"], fast)
        #expect(try me.run(["sync"], fast).stdout.contains("sent: 1"))
        // Restored from the backup, the clock right again.
        try backup.write(to: URL(fileURLWithPath: me.board))
        try log.write(to: URL(fileURLWithPath: pm.home.file("me/board.events.jsonl")))
        try me.run(["add", "After the restore"])
        let sync = try me.run(["sync"])
        #expect(sync.status == 0 && sync.stdout.contains("sent: 1"), "\(sync.stdout)\(sync.stderr)")
        let remote = RemoteEvents(folder: share + "/events")
        let own = remote.text(of: try #require(remote.replicas.first))
        #expect(own.contains("From forty days ahead") && own.contains("After the restore") && own.contains("Before"))
    }
}

extension ClockTests {
    /// A teammate more than seven days fast is not followed: a change made
    /// here after seeing theirs comes before it in merge order. Every copy
    /// still writes the same board, whoever folded what first, and nothing is
    /// left out (their clock is within thirty days).
    @Test func aTeammateTenDaysAheadIsNotFollowedAndEveryCopyAgrees() throws {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        let share = pm.home.file("share")
        let people = ["hana", "max"].map { SyncEndToEndTests.Copy(pm: pm, board: pm.home.file("\($0)/board.json"), user: $0) }
        let fast = ["PM_NOW": Self.iso(Date().addingTimeInterval(10 * 86_400))]
        for person in people { #expect(try person.run(["remote", "add", share]).status == 0) }
        let id = try people[0].id(["add", "Plan"])
        #expect(try people[0].run(["sync"]).status == 0)
        #expect(try people[1].run(["sync"], fast).stdout.contains("received: 1"))
        #expect(try people[1].run(["edit", id, "--body", "Max, ten days ahead"], fast).status == 0)
        #expect(try people[1].run(["sync"], fast).status == 0)
        let hana = try people[0].run(["sync"])
        #expect(hana.stdout.contains("received: 1") && !hana.stderr.contains("Left out"), "\(hana.stdout)\(hana.stderr)")
        #expect(try people[0].run(["edit", id, "--body", "Hana, after"]).status == 0)
        #expect(try people[0].run(["edit", id, "--title", "Plan, renamed"]).status == 0)
        for _ in 0..<2 {
            #expect(try people[0].run(["sync"]).status == 0)
            #expect(try people[1].run(["sync"], fast).status == 0)
        }
        #expect(people[0].bytes != nil && people[0].folded == people[1].folded, "the copies differ")
        let shown = try people[0].run(["show", id, "--json"]).stdout
        #expect(shown.contains("Hana, after") && shown.contains("Max, ten days ahead"), "both values kept: \(shown)")
        #expect(shown.contains("Plan, renamed"))
    }
}

/// Generated hostile lines (PMTestSupport's HostileEvents) reach a copy every
/// way bytes from elsewhere come in — a replica's file and a conflicted copy
/// on the remote, a conflicted copy beside the board, `pm merge` — and then
/// every command runs: none crashes, none finds a file pm wrote unreadable,
/// and nothing outside pm's own files is touched. `PM_FUZZ_SEEDS=N` runs more.
@Suite struct HostileLinesFuzzTests {
    static var seeds: [UInt64] {
        let count = Int(ProcessInfo.processInfo.environment["PM_FUZZ_SEEDS"] ?? "") ?? 2
        return (0..<UInt64(count)).map { 0xF00D + $0 }
    }

    @Test(arguments: seeds)
    func generatedHostileLinesNeverBreakAnyCommand(seed: UInt64) throws {
        let team = try HostileRemoteTests.team()
        let outside = team.pm.home.file("outside")
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try Data("untouched\n".utf8).write(to: URL(fileURLWithPath: outside + "/keep.txt"))
        try FileManager.default.createSymbolicLink(
            atPath: team.events + "/link.jsonl", withDestinationPath: outside + "/keep.txt")
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        var random = SeededGenerator(seed: seed)
        func lines(_ replica: String) -> [String] {
            var generator = HostileEvents(random: SeededGenerator(seed: random.next()), replica: replica, now: now)
            return generator.lines(80)
        }
        try team.append(lines(team.legacy), to: team.legacy + ".jsonl")
        try team.append(lines(team.legacy), to: team.legacy + ".sync-conflict-20261122-101010-ABCDEF1.jsonl")
        // Camille's own file too: every line there without her signature is refused.
        try team.append(lines(team.replicaA), to: team.replicaA + ".jsonl")
        let replicaC = UUID().uuidString.lowercased()
        try team.append(lines(replicaC), to: replicaC + ".jsonl")
        let beside = team.pm.home.file("ji-woo/board.sync-conflict-20261123-000000-XYZ.jsonl")
        try Data((lines(team.legacy).joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: beside))
        let merged = team.pm.home.file("colleague.jsonl")
        try Data((lines(replicaC).joined(separator: "\n") + "\n\u{FF}\u{FE}bad\n").utf8).write(to: URL(fileURLWithPath: merged))
        let sync = try team.b.run(["sync"])
        #expect(sync.status == 0, "seed \(seed): \(sync.stderr)")
        let merge = try team.b.run(["merge", merged])
        #expect(merge.status == 0 || merge.status == 65, "seed \(seed): \(merge.stderr)")
        let list = try team.b.run(["list", "--json"])
        let id = try #require(
            (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])?.first?["id"] as? String,
            "seed \(seed): \(list.stdout)\(list.stderr)")
        try HostileRemoteTests.everyCommandWorks(team.b, "seed \(seed)", id: String(id.prefix(8)))
        // What pm wrote reads back: the board file, a fresh read of the log, the other copy after a sync.
        #expect(try team.b.run(["list"]).status == 0)
        try FileManager.default.removeItem(atPath: team.b.board)
        #expect(try team.b.run(["list", "--json"]).status == 0, "seed \(seed): the log alone reads back")
        let a = try team.a.run(["sync"])
        #expect(a.status == 0, "seed \(seed): \(a.stderr)")
        try HostileRemoteTests.everyCommandWorks(team.a, "seed \(seed), camille", id: String(id.prefix(8)))
        #expect(try String(contentsOfFile: outside + "/keep.txt", encoding: .utf8) == "untouched\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == ["keep.txt"])
        #expect(!sync.stdout.contains("\u{1B}") && !sync.stderr.contains("\u{1B}"), "raw escape on the terminal")
    }
}
