import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Undo and redo through the binary with the real clock (no `PM_NOW`):
/// every step writes a new `updatedAt`, milliseconds apart, as in real use.
@Suite struct UndoRealClockTests {
    /// A pm with the live clock.
    func livePM() -> PMBinary {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        return pm
    }

    func tasks(_ pm: PMBinary, _ extra: [String: String] = [:]) throws -> [[String: Any]] {
        let run = try pm.run(["list", "--json"], extra)
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], "\(run.stderr)")
    }

    /// What a person sees of the board: no timestamps.
    func contents(_ pm: PMBinary) throws -> [String] {
        try tasks(pm).map { task in
            ["id", "title", "body", "state", "due"].map { "\(task[$0] ?? "-")" }.joined(separator: "|")
        }.sorted()
    }

    func id(_ run: Run) -> String { run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// The issue's own reproduction: pm 0.1 refused the second undo.
    @Test func aSecondUndoOnTheSameTaskGoesThrough() throws {
        let pm = livePM()
        let task = id(try pm.run(["add", "A"]))
        #expect(try pm.run(["edit", task, "--title", "A2"]).status == 0)
        let first = try pm.run(["undo"])
        #expect(first.status == 0 && first.stdout.contains("Undid your last change: renamed 'A' to 'A2'."), "\(first.stderr)")
        let second = try pm.run(["undo"])
        #expect(second.status == 0 && second.stdout.contains("Undid your last change: added 'A'."), "\(second.stderr)")
        #expect(try tasks(pm).isEmpty)
        #expect(try pm.runInTerminal(["list", "--color", "never"]).stdout.contains("Nothing to undo · pm redo is available."))
        #expect(try pm.run(["redo"]).status == 0)
        #expect(try pm.run(["redo"]).status == 0)
        #expect(try tasks(pm).first?["title"] as? String == "A2")
    }

    /// Twenty changes of every kind, undone one by one back to the empty
    /// board, then redone one by one to the last board.
    @Test func twentyStepsOfEveryKindUndoneAndRedone() throws {
        let pm = livePM()
        var snapshots = [try contents(pm)]
        var ids: [String] = []
        for step in 0..<20 {
            let arguments: [String]
            switch step % 7 {
            case 0, 3: arguments = ["add", "task \(step)", "--body", "body \(step)", "--due", "2026-12-0\(1 + step % 9)"]
            case 1: arguments = ["edit", ids[ids.count - 1], "--title", "renamed \(step)"]
            case 2: arguments = ["move", ids[0], step % 2 == 0 ? "doing" : "done"]
            case 4: arguments = ["edit", ids[ids.count - 1], "--body", "new body \(step)", "--no-due"]
            case 5: arguments = ["edit", ids[0], "--due", "+\(step)d"]
            default: arguments = ["delete", ids.removeLast()]
            }
            let run = try pm.run(arguments)
            #expect(run.status == 0, "step \(step) \(arguments): \(run.stderr)")
            if arguments[0] == "add" { ids.append(id(run)) }
            // A step that changed nothing (`--due +5d` on a day when the task
            // is already due then: pm says so) is no step to undo: what pm
            // answered decides, on any day of the year.
            let after = try contents(pm)
            if after != snapshots.last { snapshots.append(after) }
        }
        for expected in snapshots.dropLast().reversed() {
            let run = try pm.run(["undo"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try contents(pm) == expected)
        }
        #expect(try pm.run(["undo"]).status == 1, "nothing left to undo")
        for expected in snapshots.dropFirst() {
            let run = try pm.run(["redo"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try contents(pm) == expected)
        }
    }

    /// A colleague's change to another field is kept; to the same field it
    /// blocks, the refusal says how to skip, and skipping reaches older changes.
    @Test func interleavedWithAColleague() throws {
        let pm = livePM()
        let camille = ["PM_USER": "camille"]
        let first = id(try pm.run(["add", "first"]))
        let second = id(try pm.run(["add", "second"]))
        try pm.run(["move", second, "doing"])
        try pm.run(["edit", second, "--title", "Camille's title"], camille)
        let undoMove = try pm.run(["undo"])
        #expect(undoMove.status == 0, "another field: \(undoMove.stderr)")
        let after = try tasks(pm).first { ($0["id"] as? String)?.hasPrefix(second) == true }
        #expect(after?["state"] as? String == "todo" && after?["title"] as? String == "Camille's title")

        try pm.run(["redo"])
        try pm.run(["move", second, "done"], camille)
        let before = pm.boardBytes()
        let refused = try pm.run(["undo"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains("was changed by camille") && refused.stderr.contains("pm undo --skip"), "\(refused.stderr)")
        #expect(pm.boardBytes() == before)
        #expect(try pm.runInTerminal(["list", "--color", "never"]).stdout.contains("pm undo is blocked by a later change"))

        let skipped = try pm.run(["undo", "--skip"])
        #expect(skipped.status == 0 && skipped.stdout.contains("without changing the board"), "\(skipped.stderr)")
        #expect(pm.boardBytes() == before, "a skip writes no board")
        // Undoing the add of "second" would delete camille's work: blocked too.
        #expect(try pm.run(["undo"]).status == 1)
        #expect(try pm.run(["undo", "--skip"]).stdout.contains("added 'second'"))
        let older = try pm.run(["undo"])
        #expect(older.status == 0 && older.stdout.contains("added 'first'"), "\(older.stderr)")
        #expect(try !tasks(pm).contains { ($0["id"] as? String)?.hasPrefix(first) == true })
        #expect(try tasks(pm).contains { ($0["id"] as? String)?.hasPrefix(second) == true }, "camille's task stays")
    }

    @Test func aRefusalForATaskAColleagueDeletedNamesIt() throws {
        let pm = livePM()
        let task = id(try pm.run(["add", "Quarterly report"]))
        try pm.run(["delete", task], ["PM_USER": "camille"])
        for (language, text) in [
            ("en_US.UTF-8", "'Quarterly report' was deleted by camille"),
            ("fr_FR.UTF-8", "« Quarterly report » a été supprimée par camille"),
            ("ko_KR.UTF-8", "'Quarterly report'를 camille 님이"),
        ] {
            let run = try pm.run(["undo"], ["LANG": language])
            #expect(run.status == 1 && run.stderr.contains(text), "\(language): \(run.stderr)")
            #expect(!run.stderr.contains("''") && !run.stderr.contains("«  »"))
        }
    }

    /// Two copies of one board share its id; each has its own undo stack.
    @Test func aCopyOfTheBoardDoesNotShareTheUndoStack() throws {
        let pm = livePM()
        try pm.run(["add", "in the original"])
        let copy = pm.home.file("copy.json")
        try FileManager.default.copyItem(atPath: pm.boardPath, toPath: copy)
        let run = try pm.run(["undo", "--board", copy])
        #expect(run.status == 1 && run.stderr.contains("Nothing to undo"), "\(run.stderr)")
        #expect(try pm.run(["list", "--json", "--board", copy]).stdout.contains("in the original"))
        #expect(try pm.run(["undo"]).status == 0, "the original's stack is intact")
    }
    // kill -9 during changes, then undo: KillTests (10k tasks, every kind of change).
}
