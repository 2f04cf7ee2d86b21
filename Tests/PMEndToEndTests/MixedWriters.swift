import Foundation
import Testing

/// Eight people change one board at the same moment, each with 25 changes of
/// every kind (add, move, edit, delete, undo, redo), on the real clock.
/// Whatever the interleaving, each person's tasks must end exactly as their
/// own sequence says, and the log must hold all 200 changes: nothing lost,
/// nothing applied twice, no undo that took back a colleague's change.
enum MixedWriters {
    static let workers = 8
    static let changesPerWorker = 25

    /// One worker's 25 changes; returns the failures it met.
    static func work(_ worker: Int, pm: PMBinary, extra: [String: String]) -> [String] {
        var environment = extra
        environment["PM_USER"] = "writer-\(worker)"
        var failures: [String] = []
        var ids: [String: String] = [:]
        func run(_ arguments: [String]) -> String {
            do {
                let result = try pm.run(arguments, environment)
                if result.status != 0 { failures.append("w\(worker) \(arguments): \(result.status) \(result.stderr)") }
                return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            } catch {
                failures.append("w\(worker) \(arguments): \(error)")
                return ""
            }
        }
        // The full id: a short one printed now may be shared by a colleague's task a moment later.
        func add(_ name: String) {
            let json = run(["add", "w\(worker)-\(name)", "--json"])
            let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            ids[name] = object?["id"] as? String
        }
        func id(_ name: String) -> String { ids[name] ?? "missing" }

        for name in ["a", "b", "c", "d", "e"] { add(name) }  // 5
        _ = run(["move", id("a"), "doing"])
        _ = run(["move", id("b"), "done"])
        _ = run(["edit", id("c"), "--title", "w\(worker)-c2"])
        _ = run(["edit", id("d"), "--due", "2027-01-15"])
        _ = run(["delete", id("e")])  // 10
        _ = run(["undo"])  // e is back
        _ = run(["redo"])  // e is deleted again
        _ = run(["undo"])  // e is back
        _ = run(["move", id("a"), "done"])
        _ = run(["edit", id("b"), "--body", "body of b"])  // 15
        _ = run(["move", id("c"), "doing"])
        for name in ["f", "g", "h", "i"] { add(name) }  // 20
        _ = run(["delete", id("f")])
        _ = run(["edit", id("g"), "--title", "w\(worker)-g2"])
        _ = run(["move", id("h"), "doing"])
        _ = run(["undo"])  // h back in todo
        _ = run(["edit", id("a"), "--title", "w\(worker)-a2"])  // 25
        return failures
    }

    /// What each worker's tasks must be at the end: title → (state, due, body).
    static func expected(_ worker: Int) -> [String: (String, String?, String)] {
        let p = "w\(worker)-"
        return [
            p + "a2": ("done", nil, ""), p + "b": ("done", nil, "body of b"), p + "c2": ("doing", nil, ""),
            p + "d": ("todo", "2027-01-15", ""), p + "e": ("todo", nil, ""), p + "g2": ("todo", nil, ""),
            p + "h": ("todo", nil, ""), p + "i": ("todo", nil, ""),
        ]
    }

    /// Runs the eight workers at once and checks the board and the log.
    static func check(_ pm: PMBinary, extra: [String: String]) throws {
        var pm = pm
        pm.environment["PM_NOW"] = nil
        let board = pm
        let lock = NSLock()
        nonisolated(unsafe) var failures: [String] = []
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let found = work(worker, pm: board, extra: extra)
            lock.withLock { failures += found }
        }
        #expect(failures.isEmpty, "\(failures.count) changes failed: \(failures.prefix(3))")
        let list = try pm.run(["list", "--json"])
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        var found: [String: (String, String?, String)] = [:]
        for task in tasks {
            let title = task["title"] as? String ?? ""
            #expect(found[title] == nil, "\(title) twice")
            found[title] = (task["state"] as? String ?? "", task["due"] as? String, task["body"] as? String ?? "")
        }
        for worker in 0..<workers {
            for (title, (state, due, body)) in expected(worker) {
                let task = found.removeValue(forKey: title)
                #expect(
                    task?.0 == state && task?.1 == due && task?.2 == body,
                    "\(title): \(String(describing: task)), wanted \(state) \(String(describing: due)) '\(body)'")
            }
        }
        #expect(found.isEmpty, "tasks nobody should have: \(found.keys.sorted())")
        let log = String(
            decoding: FileManager.default.contents(atPath: String(pm.boardPath.dropLast(5)) + ".events.jsonl") ?? Data(),
            as: UTF8.self)
        #expect(
            log.split(separator: "\n").count == workers * changesPerWorker + 1,
            "the board's record, then every change is one event")
        let history = try pm.run(["history", "--limit", "1000", "--json"]).stdout
        #expect(history.components(separatedBy: "\"action\"").count - 1 == workers * changesPerWorker)
    }
}
