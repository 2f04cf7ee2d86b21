import Foundation
import PMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `kill -9` at random moments during changes of every kind on a 10k-task
/// board, with the real clock. After each kill: a change whose command
/// exited 0 is on the board; undo takes back exactly the author's newest
/// change in the log (never an older one, never a colleague's); redo puts it
/// back. At the end the board holds exactly what the committed changes say.
@Suite(.onOwnThreads) struct KillTests {
    static let taskCount = 10_000

    /// A pm 0.1 board of 10k tasks (the first change converts it to the log).
    static func seedBoard(_ pm: PMBinary) throws -> [String] {
        var ids: [String] = []
        var text = "{\"history\": [], \"id\": \"00c0ffee-0000-4000-8000-00000000b0a4\", \"schemaVersion\": 1, \"tasks\": [\n"
        // Made in the year before today, whatever day the suite runs on: a
        // board from the future comes after every change made now in merge
        // order, and undo was then rightly refused (found at a faked 31 January).
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        for n in 0..<taskCount {
            let id = String(
                format: "%08x-%04x-4%03x-8%03x-%012x", n &* 2_654_435_761 & 0xffff_ffff, n & 0xffff, n % 0xfff, n % 0xfff, n)
            ids.append(id)
            let time = SimulatedReplica.iso(now - Int64(1 + n % 300) * 86_400_000)
            if n > 0 { text += ",\n" }
            text +=
                "{\"body\": \"seeded\", \"createdAt\": \"\(time)\", \"id\": \"\(id)\", \"state\": \"\(["todo", "doing", "done"][n % 3])\", \"title\": \"task \(n)\", \"updatedAt\": \"\(time)\"}"
        }
        text += "]}\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: pm.boardPath))
        return ids
    }

    func json(_ run: Run) -> [String: Any]? {
        guard let array = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]] else { return nil }
        return array.first
    }

    @Test func aHundredKillsDuringChangesOfATenThousandTaskBoard() throws {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        let ids = try Self.seedBoard(pm)
        // The model: what each touched task must be (title, state), nil when deleted.
        var model: [String: (title: String, state: String)?] = [:]
        for (n, id) in ids.enumerated() { model[id] = ("task \(n)", ["todo", "doing", "done"][n % 3]) }
        let convert = try pm.run(["add", "first change converts the board"])
        #expect(convert.status == 0, "\(convert.stderr)")
        var slowest = 0.0
        for n in 0..<3 {
            let start = Date()
            try pm.run(["move", ids[n], "done"])
            model[ids[n]] = ("task \(n)", "done")
            slowest = max(slowest, Date().timeIntervalSince(start))
        }
        let window = useconds_t(min(max(slowest * 1.5, 0.02), 3) * 1_000_000)
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededGenerator(seed: seed)
        var outcomes = (committed: 0, lost: 0)
        for round in 0..<100 {
            var target = ids[Int.random(in: 3..<ids.count, using: &random)]
            while model[target] == nil || model[target]! == nil { target = ids[Int.random(in: 3..<ids.count, using: &random)] }
            let current = model[target]!!
            let arguments: [String]
            switch round % 4 {
            case 0: arguments = ["add", "kill \(round)"]
            case 1: arguments = ["move", target, current.state == "todo" ? "doing" : "todo"]
            case 2: arguments = ["edit", target, "--title", "kill \(round)"]
            default: arguments = ["delete", target]
            }
            let process = try ChildProcess(
                PMBinary.path, arguments, environment: pm.environment, stdout: .discard, stderr: .discard)
            usleep(useconds_t.random(in: 0...window))
            process.send(SIGKILL)
            let exitedZero = process.wait().status == 0

            let newestRun = try pm.run(["history", "--limit", "1", "--json"])
            let newest = try #require(json(newestRun), "round \(round) (seed \(seed)): \(newestRun.stderr)")
            let action = newest["action"] as? String
            let task = newest["task"] as? String ?? ""
            let committed: Bool
            switch round % 4 {
            case 0: committed = action == "added" && newest["title"] as? String == "kill \(round)"
            case 1: committed = action == "moved" && task == target && newest["to"] as? String == arguments[2]
            case 2: committed = action == "edited" && task == target
            default: committed = action == "removed" && task == target
            }
            #expect(!exitedZero || committed, "round \(round) (seed \(seed)): \(arguments) exited 0 but is not in the log")
            if committed {
                outcomes.committed += 1
                switch round % 4 {
                case 0: model[task] = ("kill \(round)", "todo")
                case 1: model[target] = (current.title, arguments[2])
                case 2: model[target] = ("kill \(round)", current.state)
                default: model[target] = .some(nil)
                }
            } else {
                outcomes.lost += 1
            }
            // Undo takes back exactly the newest change in the log (all of it
            // is this author's), and redo puts it back.
            let undo = try pm.run(["undo", "--json"])
            let undone = json(undo)
            #expect(
                undo.status == 0 && undone?["undoes"] as? String == newest["id"] as? String,
                "round \(round) (seed \(seed)): undo took back \(String(describing: undone?["undoes"])), not \(newest["id"] ?? "-"): \(undo.stderr)"
            )
            let redo = try pm.run(["redo", "--json"])
            #expect(
                redo.status == 0 && json(redo)?["redoes"] as? String == undone?["id"] as? String,
                "round \(round) (seed \(seed)): \(redo.stderr)")
        }
        #expect(outcomes.committed > 0 && outcomes.lost > 0, "kills must land on both sides of the commit: \(outcomes)")

        let list = try pm.run(["list", "--json"])
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        var board: [String: (String, String)] = [:]
        for task in tasks {
            board[task["id"] as? String ?? ""] = (task["title"] as? String ?? "", task["state"] as? String ?? "")
        }
        var mismatches: [String] = []
        for (id, wanted) in model {
            let found = board[id]
            if found?.0 != wanted?.title || found?.1 != wanted?.state {
                mismatches.append("\(id): \(String(describing: found)) ≠ \(String(describing: wanted))")
            }
        }
        #expect(mismatches.isEmpty, "seed \(seed): \(mismatches.prefix(5))")
        #expect(tasks.count == model.values.filter { $0 != nil }.count + 1, "no task appeared from nowhere")
    }
}
