import Foundation
import PMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Everything that goes wrong at once, through the binary (issue 20): 3–5
/// copies of one board over a bare repository, a `git daemon` on loopback
/// or a folder; random changes, undos and syncs with clocks ten minutes
/// apart; remote outages; `kill -9` of syncs and of changes; syncs at the
/// same moment; a copy put back from an old backup (whole, or only its
/// log); conflicted copies on the remote; a sync tool that keeps the older
/// side of a conflict (the newer set beside as a conflicted copy); a
/// segment cut short; a copy's signing key lost; a CSV imported again
/// after its cards were deleted (issue 43). After healing, every board is
/// the same bytes — folded incrementally and folded again from its log
/// alone — and a newcomer who joins last ends with the same; every change
/// that exited 0 is there (shown, in conflicts, or in the history of a
/// change that replaced it), no task comes from nowhere, and nothing
/// crashed or hung.
///
/// `PM_CHAOS_SEEDS` (default 3) and `PM_CHAOS_STEPS` (default 45) make the
/// long run; `PM_CHAOS_FIRST` picks the first seed.
@Suite struct SyncChaosTests {
    typealias Copy = SyncEndToEndTests.Copy

    static var seeds: [Int] {
        let environment = ProcessInfo.processInfo.environment
        let count = Int(environment["PM_CHAOS_SEEDS"] ?? "") ?? 3
        let first = Int(environment["PM_CHAOS_FIRST"] ?? "") ?? 0
        return Array(first..<(first + count))
    }

    static var steps: Int { Int(ProcessInfo.processInfo.environment["PM_CHAOS_STEPS"] ?? "") ?? 45 }

    enum Remote: CaseIterable { case bare, daemon, folder }

    /// A run of pm that may be cut short: its status (nil when killed or hung).
    struct Outcome {
        var status: Int32?
        var stdout: String
        var stderr: String
        var hung = false
    }

    /// One copy, its clock offset and what it did.
    final class Person {
        let copy: Copy
        let offset: TimeInterval
        /// Changes acknowledged since this copy's last sync that exited 0.
        var unsynced: Set<String> = []
        /// A backup of its board files, and what it had not synced then.
        var backup: (files: [String: Data], unsynced: Set<String>)?

        init(copy: Copy, offset: TimeInterval) {
            self.copy = copy
            self.offset = offset
        }

        var files: [String] {
            let stem = String(copy.board.dropLast(".json".count))
            return [copy.board, stem + ".events.jsonl", stem + ".events.marks"]
        }

        var environment: [String: String] {
            let now = Date().addingTimeInterval(offset)
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return ["PM_NOW": formatter.string(from: now), "PM_USER": copy.user]
        }
    }

    /// A pm started, its output going to files (no pipe to fill, no thread to read it).
    struct Running {
        let process: ChildProcess
        let output: String

        init(_ person: Person, _ arguments: [String]) throws {
            output = person.copy.pm.home.file("out-" + UUID().uuidString)
            process = try ChildProcess(
                PMBinary.path, arguments + ["--board", person.copy.board],
                environment: person.copy.pm.environment.merging(person.environment) { _, new in new },
                stdout: .file(output + ".1"), stderr: .file(output + ".2"))
        }

        /// Waits for it; kills it (kill -9) after `killAfter` seconds, or as hung after `limit`.
        func finish(killAfter: Double? = nil, limit: Double = 60) -> Outcome {
            let deadline = Date().addingTimeInterval(killAfter ?? limit)
            while process.isRunning && Date() < deadline { usleep(2_000) }
            let hung = process.isRunning && killAfter == nil
            process.send(SIGKILL)
            let status = process.wait().status
            let killed = status > 128  // pm's own exit codes are all below 128
            defer {
                try? FileManager.default.removeItem(atPath: output + ".1")
                try? FileManager.default.removeItem(atPath: output + ".2")
            }
            return Outcome(
                status: killed ? nil : status,
                stdout: (try? String(contentsOfFile: output + ".1", encoding: .utf8)) ?? "",
                stderr: (try? String(contentsOfFile: output + ".2", encoding: .utf8)) ?? "", hung: hung)
        }
    }

    static func run(_ person: Person, _ arguments: [String], killAfter: Double? = nil) throws -> Outcome {
        try Running(person, arguments).finish(killAfter: killAfter)
    }

    @Test(arguments: seeds)
    func copiesHealAndKeepEveryAcknowledgedChange(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) &* 0x9E37_79B9 &+ 0x20)
        let remoteKind = Remote.allCases[seed % 3]
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        let count = Int.random(in: 3...5, using: &random)
        let people = (0..<count).map { index in
            Person(
                copy: Copy(pm: pm, board: pm.home.file("p\(index)/board.json"), user: "p\(index)"),
                offset: [-600, 0, 600][Int.random(in: 0..<3, using: &random)])
        }
        // The remote, and how to take it away and bring it back.
        let bare = pm.home.file("remote.git")
        let share = pm.home.file("share")
        var daemon: GitDaemon?
        let target: String
        switch remoteKind {
        case .bare, .daemon:
            _ = try runGit(["init", "-q", "--bare", bare])
            // A port another process holds: another daemon, on another port.
            for _ in 0..<5 where remoteKind == .daemon {
                daemon?.stop()
                daemon = GitDaemon(base: pm.home.path)
                try daemon?.start()
                if let url = daemon?.url, try runGit(["ls-remote", url]).0 == 0 { break }
            }
            target = daemon?.url ?? bare
        case .folder:
            try FileManager.default.createDirectory(atPath: share, withIntermediateDirectories: true)
            target = share
        }
        defer { daemon?.stop() }
        var online = true
        func setOnline(_ up: Bool) throws {
            guard up != online else { return }
            switch remoteKind {
            case .daemon: if up { try daemon?.start() } else { daemon?.stop() }
            case .bare: try FileManager.default.moveItem(atPath: up ? bare + ".off" : bare, toPath: up ? bare : bare + ".off")
            case .folder:
                try FileManager.default.moveItem(atPath: up ? share + ".off" : share, toPath: up ? share : share + ".off")
            }
            online = up
        }

        var acknowledged: [String: Int] = [:]  // token → who
        var issued = Set<String>()  // every title pm was given, acknowledged or not
        var lostByRestore = Set<String>()
        var added: [String: String] = [:]  // token → task id
        var findings: [String] = []
        func check(_ outcome: Outcome, _ allowed: Set<Int32>, _ what: String) {
            if outcome.hung { findings.append("\(what) hung") }
            if let status = outcome.status, !allowed.contains(status) {
                findings.append("\(what) exited \(status): \(outcome.stderr.prefix(300))")
            }
        }
        func tasks(_ person: Person) -> [[String: Any]] {
            guard let outcome = try? Self.run(person, ["list", "--json"]), outcome.status == 0 else { return [] }
            return (try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]]) ?? []
        }
        func acknowledge(_ token: String, by index: Int) {
            acknowledged[token] = index
            people[index].unsynced.insert(token)
        }

        // As a team starts: the first person makes the board, everyone else joins it.
        for person in people {
            check(try Self.run(person, ["remote", "add", target]), [0], "remote add")
        }
        issued.insert("s\(seed)-start")
        check(try Self.run(people[0], ["add", "s\(seed)-start"]), [0], "add")
        acknowledge("s\(seed)-start", by: 0)
        for person in people {
            check(try Self.run(person, ["sync"]), [0], "first sync")
            person.unsynced = []
        }
        for step in 0..<Self.steps {
            let who = Int.random(in: 0..<count, using: &random)
            let person = people[who]
            let token = "s\(seed)-\(step)"
            let roll = Int.random(in: 0..<112, using: &random)
            switch roll {
            case 0..<26:
                issued.insert(token)
                let outcome = try Self.run(person, ["add", token])
                check(outcome, [0], "add")
                if outcome.status == 0 {
                    acknowledge(token, by: who)
                    added[token] = outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                }
            case 26..<38:
                guard let task = tasks(person).randomElement(using: &random), let id = task["id"] as? String else { continue }
                issued.insert(token)
                let outcome = try Self.run(person, ["edit", String(id.prefix(8)), "--title", token])
                check(outcome, [0, 1], "edit")
                if outcome.status == 0 { acknowledge(token, by: who) }
            case 38..<45:
                guard let task = tasks(person).randomElement(using: &random), let id = task["id"] as? String else { continue }
                let state = ["todo", "doing", "done"][Int.random(in: 0..<3, using: &random)]
                check(try Self.run(person, ["move", String(id.prefix(8)), state]), [0, 1], "move")
            case 45..<49:
                guard let task = tasks(person).randomElement(using: &random), let id = task["id"] as? String else { continue }
                check(try Self.run(person, ["delete", String(id.prefix(8))]), [0, 1], "delete")
            case 49..<54:
                check(try Self.run(person, [Bool.random(using: &random) ? "undo" : "redo"]), [0, 1], "undo/redo")
            case 54..<76:
                let outcome = try Self.run(person, ["sync"])
                check(outcome, [0, 75], "sync")
                if outcome.status == 0 { person.unsynced = [] }
            case 76..<80:
                // A sync killed mid-way.
                _ = try Self.run(person, ["sync"], killAfter: Double.random(in: 0.01...0.4, using: &random))
            case 80..<83:
                // A change killed mid-way: it may or may not have happened, never half.
                issued.insert("k" + token)
                _ = try Self.run(person, ["add", "k" + token], killAfter: Double.random(in: 0.001...0.05, using: &random))
            case 83..<87:
                // Syncs at the same moment, one copy's twice among them.
                let group = people.shuffled(using: &random).prefix(Int.random(in: 2...3, using: &random)) + [person]
                let running = try group.map { try Running($0, ["sync"]) }
                for (index, outcome) in running.map({ $0.finish() }).enumerated() {
                    check(outcome, [0, 75], "simultaneous sync")
                    if outcome.status == 0, outcome.stdout.contains("sent: ") { group[index].unsynced = [] }
                }
            case 87..<91:
                try setOnline(!online)
            case 91..<93:
                person.backup = (
                    Dictionary(
                        uniqueKeysWithValues: person.files.compactMap { path in
                            FileManager.default.contents(atPath: path).map { (path, $0) }
                        }),
                    person.unsynced
                )
            case 93..<96:
                // Put back from the old backup: what it made since and never synced is the user's to lose.
                guard let backup = person.backup else { continue }
                // The whole board, or (as a backup tool that missed a file would) only its log.
                // (Only the log: what the board held is kept, as it then stood; what
                // was replaced in between and never synced is the user's to lose.)
                let onlyLog = Bool.random(using: &random)
                lostByRestore.formUnion(person.unsynced)
                for path in person.files where !onlyLog || path.hasSuffix(".events.jsonl") {
                    if let bytes = backup.files[path] {
                        try bytes.write(to: URL(fileURLWithPath: path))
                    } else {
                        try? FileManager.default.removeItem(atPath: path)
                    }
                }
                if !onlyLog { person.unsynced = backup.unsynced }
            case 96..<98:
                // A side path: a teammate's file merged by hand. What it held is
                // this copy's to pass on: its author may lose it now.
                guard let other = people.filter({ $0 !== person }).randomElement(using: &random) else { continue }
                let outcome = try Self.run(person, ["merge", other.copy.board])
                // (74: the teammate's board was put back to before it existed.)
                check(outcome, FileManager.default.fileExists(atPath: other.copy.board) ? [0] : [74], "merge")
                if outcome.status == 0 {
                    person.unsynced.formUnion(other.unsynced)
                    other.unsynced = []
                    // Then the teammate's laptop is lost, and their new one
                    // starts from the remote: only the merged copy holds what
                    // they never synced, and must pass it on.
                    if online && Bool.random(using: &random) {
                        for path in other.files { try? FileManager.default.removeItem(atPath: path) }
                        other.backup = nil
                        check(try Self.run(other, ["sync"]), [0], "sync of a new laptop")
                    }
                }
            case 100..<103:
                // A sync tool that keeps the older side of a conflict: the
                // newer file set beside as a conflicted copy, a shorter one
                // (the lines it held before, or none) in its place.
                guard remoteKind == .folder, online else { continue }
                let events = RemoteEvents(folder: share + "/events")
                guard let replica = events.replicas.randomElement(using: &random),
                    let segment = events.segments(of: replica).randomElement(using: &random),
                    let bytes = FileManager.default.contents(atPath: segment)
                else { continue }
                let copy = String(segment.dropLast(".jsonl".count)) + ".sync-conflict-20261126-1\(step)-OLDER\(seed).jsonl"
                try? FileManager.default.moveItem(atPath: segment, toPath: copy)
                let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                let kept = lines.prefix(Int.random(in: 0..<max(1, lines.count - 1), using: &random))
                try? Data(kept.map { Data($0) + Data("\n".utf8) }.reduce(Data(), +)).write(to: URL(fileURLWithPath: segment))
            case 103..<105:
                // A segment cut short (a copy interrupted, a disk that lied), maybe mid-line.
                guard remoteKind == .folder, online else { continue }
                let events = RemoteEvents(folder: share + "/events")
                guard let replica = events.replicas.randomElement(using: &random),
                    let segment = events.segments(of: replica).randomElement(using: &random),
                    let bytes = FileManager.default.contents(atPath: segment), bytes.count > 1
                else { continue }
                try? bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)).write(to: URL(fileURLWithPath: segment))
            case 105..<107:
                // The copy's signing key lost (a new laptop's home restored without it).
                let state = pm.home.file(".local/state/pm")
                let keys = ((try? FileManager.default.contentsOfDirectory(atPath: state)) ?? []).filter {
                    $0.hasPrefix("key-") && $0.hasSuffix("-" + person.copy.user)
                }
                for key in keys { try? FileManager.default.removeItem(atPath: state + "/" + key) }
            case 107..<112:
                // The same CSV imported again (its cards' ids derived from
                // it), whatever was deleted or changed since.
                let csv = pm.home.file("import-\(seed).csv")
                if !FileManager.default.fileExists(atPath: csv) {
                    let rows = (1...3).map { "imp\($0),s\(seed)-imported-\($0)" }
                    try ("id,title\n" + rows.joined(separator: "\n") + "\n").write(
                        toFile: csv, atomically: true, encoding: .utf8)
                }
                for n in 1...3 { issued.insert("s\(seed)-imported-\(n)") }
                check(try Self.run(person, ["import", "csv", csv]), [0], "import")
            default:
                // A sync tool's conflicted copy of a file on the remote.
                guard remoteKind == .folder, online else { continue }
                let events = RemoteEvents(folder: share + "/events")
                guard let replica = events.replicas.randomElement(using: &random),
                    let segment = events.segments(of: replica).randomElement(using: &random)
                else { continue }
                let copy = String(segment.dropLast(".jsonl".count)) + ".sync-conflict-20261124-0\(step)-ABCDEF\(seed).jsonl"
                try? FileManager.default.copyItem(atPath: segment, toPath: copy)
            }
        }
        // Healing: the remote back, everyone syncs until nothing moves.
        try setOnline(true)
        for _ in 0..<3 {
            for person in people { check(try Self.run(person, ["sync"]), [0], "healing sync") }
        }
        let boards = people.map(\.copy.folded)
        if let keep = ProcessInfo.processInfo.environment["PM_CHAOS_KEEP"], !boards.allSatisfy({ $0 == boards[0] }) {
            try? FileManager.default.copyItem(atPath: pm.home.path, toPath: keep + "/seed-\(seed)")
        }
        #expect(boards.allSatisfy { $0 != nil && $0 == boards[0] }, "seed \(seed) (\(remoteKind)): the copies differ")
        // Each copy folded again from its log alone: the same bytes.
        for (person, board) in zip(people, boards) {
            try? FileManager.default.removeItem(atPath: person.copy.board)
            try? FileManager.default.removeItem(atPath: person.copy.board + ".index")
            let refolded = person.copy.folded
            #expect(refolded != nil && refolded == board, "seed \(seed): \(person.copy.user)'s log folds to another board")
        }
        // A newcomer who joins after the last round ends with everything.
        let newcomer = Person(copy: Copy(pm: pm, board: pm.home.file("late/board.json"), user: "late"), offset: 0)
        check(try Self.run(newcomer, ["remote", "add", target]), [0], "newcomer's remote add")
        check(try Self.run(newcomer, ["sync"]), [0], "newcomer's sync")
        #expect(newcomer.copy.folded == boards[0], "seed \(seed) (\(remoteKind)): the newcomer's board differs")
        let board = String(decoding: boards[0] ?? Data(), as: UTF8.self)
        let history = try Self.run(people[0], ["history", "--limit", "1000000", "--json"])
        check(history, [0], "history")
        let entries = (try? JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]]) ?? []
        let titles = Set(entries.compactMap { $0["title"] as? String })
        for (token, who) in acknowledged where !lostByRestore.contains(token) {
            #expect(
                board.contains("\"\(token)\"") || titles.contains(token),
                "seed \(seed) (\(remoteKind)): '\(token)' by p\(who) was lost")
        }
        // A task added and acknowledged is on the board unless a deletion of it is in the history.
        let deleted = Set(entries.filter { $0["action"] as? String == "removed" }.compactMap { $0["task"] as? String })
        let shown = tasks(people[0])
        let ids = Set(shown.compactMap { $0["id"] as? String })
        for (token, id) in added where !lostByRestore.contains(token) {
            // `pm add` prints the id's short form.
            #expect(
                ids.contains { $0.hasPrefix(id) } || deleted.contains { $0.hasPrefix(id) },
                "seed \(seed): '\(token)' vanished without a deletion")
        }
        // Nothing from nowhere: every task's title (and every conflicting one) was given to pm.
        for task in shown {
            let title = task["title"] as? String ?? ""
            #expect(issued.contains(title), "seed \(seed): a task nobody made: \(title)")
        }
        #expect(findings.isEmpty, "seed \(seed) (\(remoteKind)): \(findings.joined(separator: "\n"))")
    }
}
