import Foundation
import Testing

/// Undo and redo across separate processes: the stacks live in each user's
/// state directory, keyed by the board's id.
@Suite struct UndoEndToEndTests {
    func json(_ pm: PMBinary, _ extra: [String: String] = [:]) throws -> [[String: Any]] {
        let run = try pm.run(["list", "--json"], extra)
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], "\(run.stderr)")
    }

    func titles(_ pm: PMBinary) throws -> [String] { try json(pm).compactMap { $0["title"] as? String } }

    @Test func everyKindOfChangeIsUndoneAndRedone() throws {
        let pm = PMBinary()
        let id = try pm.run(["add", "Write report", "--due", "2026-12-01", "--body", "b"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try pm.run(["move", id, "doing"])
        try pm.run(["edit", id, "--title", "Renamed", "--no-due"])
        let full = try #require(json(pm).first?["id"] as? String)
        try pm.run(["delete", id])
        #expect(try titles(pm).isEmpty)

        let undoDelete = try pm.run(["undo"])
        // An undo says what it took back, as it was made.
        #expect(undoDelete.stdout == "Undid your last change: removed 'Renamed' from DOING.\n")
        #expect(try json(pm).first?["id"] as? String == full, "the task comes back with its id")
        #expect(try pm.run(["undo"]).stdout.contains("renamed 'Write report' to 'Renamed'"))
        #expect(try json(pm).first?["due"] as? String == "2026-12-01")
        #expect(try pm.run(["undo"]).stdout == "Undid your last change: moved 'Write report' from TODO to DOING.\n")
        #expect(try pm.run(["undo"]).stdout == "Undid your last change: added 'Write report'.\n")
        #expect(try titles(pm).isEmpty)
        let nothing = try pm.run(["undo"])
        #expect(nothing.status == 1 && nothing.stderr.contains("Nothing to undo"))

        #expect(try pm.run(["redo"]).stdout == "Redid your last undone change: added 'Write report'.\n")
        #expect(try json(pm).first?["id"] as? String == full)
        try pm.run(["redo"])
        #expect(try json(pm).first?["state"] as? String == "doing")
        try pm.run(["redo"])
        try pm.run(["redo"])
        #expect(try titles(pm).isEmpty)
        #expect(try pm.run(["redo"]).status == 1)
        let history = try pm.run(["history", "--limit", "100", "--json"])
        let events = try #require(try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]])
        #expect(events.count == 12, "4 changes, 4 undos and 4 redos are all in the history")
    }

    @Test func eachUserUndoesOnlyTheirOwnChanges() throws {
        let pm = PMBinary()
        let jiwoo = ["PM_USER": "ji-woo"]
        let camille = ["PM_USER": "camille"]
        try pm.run(["add", "from ji-woo"], jiwoo)
        try pm.run(["add", "from camille"], camille)
        let undo = try pm.run(["undo"], jiwoo)
        #expect(undo.stdout.contains("Undid your last change: added 'from ji-woo'."))
        #expect(try titles(pm) == ["from camille"])
        #expect(try pm.run(["undo"], jiwoo).status == 1)
        #expect(try pm.run(["undo"], camille).status == 0)
        #expect(try titles(pm).isEmpty)
        // Machines sharing the file do not share stacks: another state directory has none.
        #expect(try pm.run(["redo"], ["XDG_STATE_HOME": pm.home.file("other-machine")]).status == 1)
    }

    @Test func aConflictRefusesNamesWhoAndWhenAndChangesNothing() throws {
        let pm = PMBinary()
        let id = try pm.run(["add", "Shared task"], ["PM_USER": "ji-woo"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try pm.run(["edit", id, "--title", "Ji-woo's version"], ["PM_USER": "ji-woo"])
        try pm.run(["edit", id, "--title", "Camille's version"], ["PM_USER": "camille", "PM_NOW": "2026-11-21T19:05:00Z"])
        let board = pm.boardBytes()
        let stateDir = pm.home.file(".local/state/pm")
        let stateBefore = try FileManager.default.contentsOfDirectory(atPath: stateDir).sorted().map {
            FileManager.default.contents(atPath: stateDir + "/" + $0)
        }
        for (language, expected) in [
            (
                "en_US.UTF-8",
                "'Camille's version' was changed by camille on November 21, 2026 at 7:05\u{202F}PM. Nothing was changed."
            ),
            ("fr_FR.UTF-8", "« Camille's version » a été modifiée par camille le 21 novembre 2026 à 19:05."),
            ("ko_KR.UTF-8", "'Camille's version'을 camille 님이 2026년 11월 21일 오후 7:05에 바꿨습니다."),
        ] {
            let run = try pm.run(["undo"], ["PM_USER": "ji-woo", "LANG": language])
            #expect(run.status == 1)
            #expect(run.stderr.contains(expected), "\(language): \(run.stderr)")
            #expect(run.stderr.contains("pm undo --skip"), "the refusal says how to get past it")
        }
        #expect(pm.boardBytes() == board, "the board is byte-for-byte unchanged")
        let stateAfter = try FileManager.default.contentsOfDirectory(atPath: stateDir).sorted().map {
            FileManager.default.contents(atPath: stateDir + "/" + $0)
        }
        #expect(stateAfter == stateBefore, "the stack is kept")
        #expect(try pm.run(["undo"], ["PM_USER": "camille"]).status == 0)
        #expect(
            try pm.run(["undo"], ["PM_USER": "ji-woo"]).status == 0, "once camille's change is undone, ji-woo's undo goes through"
        )
    }

    /// The change that stands in the way is the reader's own, made from
    /// another machine (another state folder): they are told "you", never
    /// their own name (issue 44, item 26).
    @Test func aConflictWithOnesOwnLaterChangeSaysYou() throws {
        let pm = PMBinary()
        let id = try pm.run(["add", "Shared task"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try pm.run(["edit", id, "--title", "Laptop version"])
        let desktop = ["XDG_STATE_HOME": pm.home.file("desktop"), "PM_NOW": "2026-11-21T19:05:00Z"]
        try pm.run(["edit", id, "--title", "Desktop version"], desktop)
        for (language, expected) in [
            ("en_US.UTF-8", "Cannot undo this: you changed 'Desktop version' again on November 21, 2026 at 7:05\u{202F}PM."),
            ("fr_FR.UTF-8", "impossible d’annuler : vous avez modifié « Desktop version » depuis, le 21 novembre 2026 à 19:05."),
            ("ko_KR.UTF-8", "되돌릴 수 없습니다. 그 뒤 2026년 11월 21일 오후 7:05에 'Desktop version'을 직접 바꾸셨습니다."),
        ] {
            let run = try pm.run(["undo"], ["LANG": language])
            #expect(run.status == 1)
            #expect(run.stderr.contains(expected), "\(language): \(run.stderr)")
            #expect(!run.stderr.contains("ji-woo"), "\(run.stderr)")
        }
        try pm.run(["delete", id], desktop)
        let board = pm.boardBytes()
        let deleted = try pm.run(["undo"])
        #expect(deleted.stderr.contains("Cannot undo this: you deleted 'Laptop version' on November 21"), "\(deleted.stderr)")
        #expect(pm.boardBytes() == board && deleted.status == 1)
    }

    /// Two people rename a task offline, then sync: each may undo their own
    /// rename (nobody changed it after seeing it), and the colleague's value
    /// written at the same time stays beside it as a conflict, as the README
    /// promises (issue 44, item 3). Once both undo, every copy is back.
    @Test func anUndoAfterAConcurrentEditOfTheSameFieldKeepsTheColleaguesValue() throws {
        let (copies, id) = try SharedFolderBoard.renamedAtOnce(
            ["camille", "ji-woo"], from: "Budget", to: ["Camille's budget", "Ji-woo's budget"])
        let (camille, jiwoo) = (copies[0], copies[1])
        func title(_ copy: SyncEndToEndTests.Copy) throws -> (shown: String, conflicts: [String]) {
            (try HostileTeammateTests.titles(copy).first ?? "", try DeleteUndoTests.conflictValues(copy, id))
        }
        let before = try title(camille)
        #expect(Set([before.shown] + before.conflicts) == ["Camille's budget", "Ji-woo's budget"], "\(before)")
        // Camille takes hers back, whichever of the two is shown.
        let undo = try camille.run(["undo"])
        #expect(undo.status == 0, "\(undo.stderr)")
        // It names the change taken back: hers, not the one shown.
        #expect(undo.stdout.contains("Undid your last change: renamed 'Budget' to 'Camille's budget'."), "\(undo.stdout)")
        let after = try title(camille)
        #expect(Set([after.shown] + after.conflicts) == ["Budget", "Ji-woo's budget"], "ji-woo's stays: \(after)")
        for copy in [camille, jiwoo] { #expect(try copy.run(["sync"]).status == 0) }
        #expect(try title(jiwoo) == after, "the same on ji-woo's copy")
        let history = try jiwoo.run(["history", "--limit", "1"]).stdout
        #expect(history.contains("Undid: renamed 'Budget' to 'Camille's budget'."), "\(history)")
        // Ji-woo takes hers back too: nothing left in conflict, on both copies.
        #expect(try jiwoo.run(["undo"]).status == 0)
        for copy in [jiwoo, camille, jiwoo] { #expect(try copy.run(["sync"]).status == 0) }
        for copy in [camille, jiwoo] { #expect(try title(copy) == ("Budget", []) as (String, [String])) }
        #expect(camille.folded == jiwoo.folded)
    }

    @Test func aNewChangeClearsRedo() throws {
        let pm = PMBinary()
        try pm.run(["add", "one"])
        try pm.run(["undo"])
        #expect(try pm.runInTerminal(["list", "--color", "never"]).stdout.contains("Nothing to undo · pm redo is available."))
        // Only a person at a terminal gets the hint: not a pipe, a file or a script.
        #expect(!(try pm.run(["list"]).stdout.contains("redo")))
        try pm.run(["add", "two"])
        #expect(try pm.runInTerminal(["list", "--color", "never"]).stdout.contains("pm undo is available · nothing to redo."))
        let redo = try pm.run(["redo"])
        #expect(redo.status == 1 && redo.stderr.contains("Nothing to redo."))
    }

    @Test func aHundredUndosInARow() throws {
        let pm = PMBinary()
        for n in 0..<100 { try pm.run(["add", "task \(n)"]) }
        #expect(try titles(pm).count == 100)
        for n in (0..<100).reversed() {
            let run = try pm.run(["undo"])
            #expect(run.stdout == "Undid your last change: added 'task \(n)'.\n", "undo \(n): \(run.stderr)")
        }
        #expect(try titles(pm).isEmpty)
        #expect(try pm.run(["undo"]).status == 1)
    }

    @Test func aDamagedUndoFileRefusesChangesButNotReads() throws {
        let pm = PMBinary()
        try pm.run(["add", "x"])
        let stateDir = pm.home.file(".local/state/pm")
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: stateDir).first { $0.hasPrefix("undo-") })
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: stateDir + "/" + file))
        let before = pm.boardBytes()
        let run = try pm.run(["add", "y"])
        #expect(run.status == 65 && run.stderr.contains("Cannot read your undo history"))
        #expect(pm.boardBytes() == before)
        #expect(try pm.run(["list"]).status == 0)
        #expect(try pm.run(["undo"]).status == 65)
    }
}

/// An undo of a change to several fields lists what it took back as one
/// sentence, in every language: never "Renamed 'X' to 'Y'., Changed…".
@Suite struct UndoOfSeveralFieldsTests {
    @Test(arguments: [
        (
            "en_US.UTF-8",
            "Undid your last change: renamed 'Multi' to 'Multi2', changed the body of 'Multi', set the deadline of 'Multi' to Dec 24, 2026."
        ),
        (
            "fr_FR.UTF-8",
            "Dernière modification annulée\u{00A0}: le renommage de «\u{202F}Multi\u{202F}» en «\u{202F}Multi2\u{202F}», la modification de la description de «\u{202F}Multi\u{202F}», la fixation de l’échéance de «\u{202F}Multi\u{202F}» au 24 déc. 2026."
        ),
    ])
    func oneSentenceListsEveryFieldTakenBack(language: String, said: String) throws {
        let pm = PMBinary(language: language)
        let id = try pm.run(["add", "Multi"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try pm.run(["edit", id, "--title", "Multi2", "--body", "new body", "--due", "2026-12-24"])
        #expect(try pm.run(["undo"]).stdout == said + "\n")
        try pm.run(["redo"])
        let history = try pm.run(["history", "--color", "never"]).stdout
        #expect(!history.contains(".,") && !history.contains(". ,"), "\(history)")
    }
}
