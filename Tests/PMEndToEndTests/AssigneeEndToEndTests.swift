import Foundation
import Testing

/// Who does a card, through the binary (DESIGN.md §13): assign, unassign,
/// take, `add --to`, undo, in the reader's language; bad names refused with
/// nothing written.
@Suite struct AssigneeEndToEndTests {
    static let languages = ["en_US.UTF-8", "fr_FR.UTF-8", "ko_KR.UTF-8"]

    func assignees(_ pm: PMBinary, _ id: String) throws -> [String]? {
        let run = try pm.run(["show", id, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        return object?["assignees"] as? [String]
    }

    @Test(arguments: languages) func assignUnassignTakeAndUndoSpeakTheReadersLanguage(language: String) throws {
        let pm = PMBinary(language: language)
        let id = try pm.run(["add", "Budget review", "--to", "lee,ana"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try assignees(pm, id) == ["ana", "lee"], "names kept sorted, each once")
        let said: [String: (assigned: String, unassigned: String, undid: String)] = [
            "en_US.UTF-8": (
                "Took 'Budget review'.\n", "Unassigned lee from 'Budget review'.\n",
                "Undid your last change: unassigned lee from 'Budget review'.\n"
            ),
            "fr_FR.UTF-8": (
                "Tâche « Budget review » prise en charge.\n", "La tâche « Budget review » n’est plus assignée à lee.\n",
                "Dernière modification annulée : le retrait de l’assignation de « Budget review » à lee.\n"
            ),
            // Taking is 맡다 with no name: never 님 about oneself (issue 44, item 26).
            "ko_KR.UTF-8": (
                "'Budget review'를 맡았습니다.\n", "'Budget review'의 담당자에서 lee 님을 뺐습니다.\n",
                "마지막 변경('Budget review'의 담당자에서 lee 님을 뺀 것)을 되돌렸습니다.\n"
            ),
        ]
        let expected = try #require(said[language])
        // PM_USER is ji-woo: take assigns them; taking again changes nothing.
        #expect(try pm.run(["take", id]).stdout == expected.assigned)
        #expect(try assignees(pm, id) == ["ana", "ji-woo", "lee"])
        #expect(try pm.run(["assign", id, "ana", "ji-woo"]).status == 0, "names already assigned: nothing to do")
        #expect(try pm.run(["unassign", id, "lee"]).stdout == expected.unassigned)
        #expect(try assignees(pm, id) == ["ana", "ji-woo"])
        let undo = try pm.run(["undo"])
        #expect(undo.status == 0)
        #expect(undo.stdout.lowercased() == expected.undid.lowercased(), "\(undo.stdout)")
        #expect(try assignees(pm, id) == ["ana", "ji-woo", "lee"], "undo puts back exactly the name taken off")
        let list = try pm.run(["list", "--color", "never"]).stdout
        #expect(list.contains("@ana @ji-woo @lee"), "\(list)")
        let history = try pm.run(["history", "--color", "never"]).stdout
        #expect(history.contains(expected.assigned.trimmingCharacters(in: .newlines)), "\(history)")
        let show = try pm.run(["show", id, "--color", "never"]).stdout
        #expect(show.contains("ana, ji-woo, lee"), "\(show)")
    }

    /// The sentence depends on whether the person named is the one who made
    /// the change (issue 44, item 26): a person takes a task, takes it with
    /// others, or steps back from it; Korean names each other person with
    /// 님 and never oneself.
    @Test(arguments: languages) func takingAndSteppingBackNameOnlyTheOthers(language: String) throws {
        let pm = PMBinary(language: language)
        let id = try pm.run(["add", "Budget 2027"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let said: [String: [String]] = [
            "en_US.UTF-8": [
                "Took 'Budget 2027' with ana, lee.", "Stepped back from 'Budget 2027'.",
                "Stepped back from 'Budget 2027'. Unassigned ana, lee from 'Budget 2027'.",
            ],
            "fr_FR.UTF-8": [
                "Tâche « Budget 2027 » prise en charge avec ana, lee.", "Prise en charge de « Budget 2027 » abandonnée.",
                "Prise en charge de « Budget 2027 » abandonnée. La tâche « Budget 2027 » n’est plus assignée à ana, lee.",
            ],
            "ko_KR.UTF-8": [
                "'Budget 2027'을 ana 님, lee 님과 함께 맡았습니다.", "'Budget 2027'의 담당에서 빠졌습니다.",
                "'Budget 2027'의 담당에서 빠졌습니다. 'Budget 2027'의 담당자에서 ana 님, lee 님을 뺐습니다.",
            ],
        ]
        let expected = try #require(said[language])
        #expect(try pm.run(["assign", id, "lee", "ji-woo", "ana"]).stdout == expected[0] + "\n")
        #expect(try pm.run(["unassign", id, "ji-woo"]).stdout == expected[1] + "\n")
        try pm.run(["take", id])
        #expect(try pm.run(["unassign", id, "ana", "ji-woo", "lee"]).stdout == expected[2] + "\n")
        #expect(try assignees(pm, id) == [])
        // Someone else's line reads the same to every reader: it names who did it.
        let history = try pm.run(["history", "--color", "never"]).stdout
        for sentence in expected { #expect(history.contains("ji-woo  " + sentence), "\(history)") }
    }

    /// A colleague who assigns the reader: Korean honours the others in the
    /// list with 님, never the reader's own name (a reader is not honoured to
    /// themselves); a page many people read (HTML) honours everyone.
    @Test func theReadersOwnNameInAColleaguesLineIsNotHonoured() throws {
        let pm = PMBinary(language: "ko_KR.UTF-8")
        let id = try pm.run(["add", "Budget 2027"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try pm.run(["assign", id, "ji-woo", "lee"], ["PM_USER": "ana"])
        let line = "'Budget 2027'을 ji-woo, lee 님에게 맡겼습니다."
        let history = try pm.run(["history", "--color", "never"]).stdout
        #expect(history.contains("ana  " + line), "\(history)")
        #expect(!history.contains("ji-woo 님"), "\(history)")
        // lee reads the same change with ji-woo honoured and their own name bare.
        let lees = try pm.run(["history", "--color", "never"], ["PM_USER": "lee"]).stdout
        #expect(lees.contains("'Budget 2027'을 ji-woo 님, lee에게 맡겼습니다."), "\(lees)")
        let page = try pm.run(["export", "html"]).stdout
        #expect(page.contains("ji-woo 님, lee 님에게"), "\(page)")
    }

    /// Unassigning someone not assigned changes nothing and writes nothing.
    /// Taking (or assigning) a name already shown is written all the same
    /// (issue 43): an unassignment made elsewhere at the same moment, which
    /// did not see it, must not win — add wins.
    @Test func unassigningSomeoneNotAssignedChangesNothingAndTakingTwiceIsRecorded() throws {
        let pm = PMBinary()
        let id = try pm.run(["add", "Report"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try pm.run(["take", id])
        let path = String(pm.boardPath.dropLast(5)) + ".events.jsonl"
        let log = try String(contentsOfFile: path, encoding: .utf8)
        let unassign = try pm.run(["unassign", id, "lee"])
        #expect(unassign.status == 0)
        #expect(unassign.stdout == "Nothing changed: 'Report' already had those values.\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == log, "a change of nothing writes nothing")
        for arguments in [["take", id], ["assign", id, "ji-woo"]] {
            let run = try pm.run(arguments)
            #expect(run.status == 0)
            #expect(run.stdout == "Took 'Report'.\n", "\(arguments): \(run.stdout)")
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == log.split(separator: "\n").count + 2, "each assignment again is one change")
        let shown = try pm.run(["show", id, "--json"]).stdout
        #expect(shown.contains("\"ji-woo\""))
    }

    @Test(arguments: languages) func badNamesAreRefusedAndNothingIsWritten(language: String) throws {
        let pm = PMBinary(language: language)
        let id = try pm.run(["add", "Report"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let before = pm.boardBytes()
        let words = ["en_US.UTF-8": "is not a name", "fr_FR.UTF-8": "n’est pas un nom", "ko_KR.UTF-8": "이름이 아닙니다"][language]
        for arguments in [
            ["assign", id, "a,,b"], ["assign", id, "evil\u{1B}[2J"], ["assign", id, "\u{202E}abc"],
            ["assign", id, String(repeating: "x", count: 201)], ["add", "New", "--to", " "], ["unassign", id, "\u{200B}"],
            ["take", id],
        ] {
            let run = try pm.run(arguments, arguments[0] == "take" ? ["PM_USER": "a,b"] : [:])
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("\u{1B}"), "the name is shown escaped")
            if arguments[0] != "take" { #expect(run.stderr.contains(try #require(words)), "\(run.stderr)") }
            #expect(pm.boardBytes() == before, "\(arguments) changed the board")
        }
    }

    @Test func namesTypedInAnyNormalisationAreOneName() throws {
        let pm = PMBinary()
        let id = try pm.run(["add", "Report", "--to", "Ame\u{301}lie"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try pm.run(["assign", id, "Am\u{E9}lie"])
        #expect(try assignees(pm, id) == ["Am\u{E9}lie"])
        // Without ICU too: a name typed there is the name every copy keeps.
        let bare = try pm.run(["assign", id, "\u{1100}\u{1161}"], ["PM_ICU_VERSION": "none"])
        #expect(bare.status == 0 && bare.stderr.isEmpty, "\(bare.stderr)")
        #expect(try assignees(pm, id) == ["Am\u{E9}lie", "\u{AC00}"])
        #expect(try pm.run(["list", "--json", "--to", "Ame\u{301}lie"]).stdout.contains("Report"))
    }

    @Test func completionOffersTheNamesSeenOnTheBoard() throws {
        let pm = PMBinary()
        let id = try pm.run(["add", "Report", "--to", "lee,ana"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try pm.run(["add", "Other", "--to", "지우"])
        let complete = { (words: [String]) in try pm.run(["__complete", "--shell", "bash", "--"] + words).stdout }
        #expect(try complete(["assign", id, ""]) == "ana\nji-woo\nlee\n지우\n", "the board's names and the reader's own")
        #expect(try complete(["list", "--to", "l"]) == "lee\n")
        #expect(try complete(["add", "x", "--to", "지"]) == "지우\n")
        #expect(try complete(["unassign", id, "a"]) == "ana\n")
    }

    @Test func theCalendarNamesWhoDoesEachTaskInTheReadersLanguage() throws {
        for (language, line) in [
            ("en_US.UTF-8", "DESCRIPTION:Notes\\n\\nAssigned to: ana\\, ji-woo"),
            ("fr_FR.UTF-8", "DESCRIPTION:Notes\\n\\nAssignée à : ana\\, ji-woo"),
            ("ko_KR.UTF-8", "DESCRIPTION:Notes\\n\\n담당자: ana\\, ji-woo"),
        ] {
            let pm = PMBinary(language: language)
            try pm.run(["add", "Report", "--due", "2026-12-01", "--body", "Notes", "--to", "ji-woo,ana"])
            try pm.run(["add", "Other", "--due", "2026-12-02", "--to", "lee"])
            let ics = try pm.run(["export", "ics"]).stdout.replacingOccurrences(of: "\r\n ", with: "")
            #expect(ics.contains(line + "\r\n"), "\(ics)")
            let mine = try pm.run(["export", "ics", "--mine"]).stdout
            #expect(mine.components(separatedBy: "BEGIN:VEVENT").count == 2, "only ji-woo's task: \(mine)")
        }
    }

    /// `pm remind` reminds each person of their tasks and the unassigned
    /// ones, never of a colleague's; `--everyone` of all of them.
    @Test(arguments: [
        ("en_US.UTF-8", "Reminder: 'Mine'", "Reminder: 'Theirs'", "Reminder: 'Anyone’s'"),
        ("fr_FR.UTF-8", "Rappel : « Mine »", "Rappel : « Theirs »", "Rappel : « Anyone’s »"),
        ("ko_KR.UTF-8", "알림: 'Mine'", "알림: 'Theirs'", "알림: 'Anyone’s'"),
    ])
    func remindersGoToTheRightPerson(language: String, mine: String, theirs: String, anyones: String) throws {
        let pm = PMBinary(language: language)
        try pm.run(["add", "Mine", "--due", "2026-11-21", "--to", "ji-woo"])
        try pm.run(["add", "Theirs", "--due", "2026-11-21", "--to", "lee"])
        try pm.run(["add", "Anyone’s", "--due", "2026-11-21"])
        let jiwoo = try pm.run(["remind"]).stdout
        #expect(jiwoo.contains(mine) && jiwoo.contains(anyones) && !jiwoo.contains(theirs), "\(jiwoo)")
        let lee = try pm.run(["remind"], ["PM_USER": "lee"]).stdout
        #expect(!lee.contains(mine) && lee.contains(anyones) && lee.contains(theirs), "\(lee)")
        let all = try pm.run(["remind", "--all", "--everyone"]).stdout
        #expect(all.contains(mine) && all.contains(anyones) && all.contains(theirs), "\(all)")
        let json = try pm.run(["remind", "--all", "--json"], ["PM_USER": "camille"]).stdout
        #expect(json.contains("Anyone’s") && !json.contains("Mine") && !json.contains("Theirs"), "\(json)")
    }
}
