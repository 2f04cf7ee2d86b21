import Foundation
import Testing

/// Imports and the people on their cards (issue 44, item 5): Trello members
/// come in by their Trello user names, which `--mine` and `--to` never
/// match; `--member NAME=TEAMMATE` gives them the names the team uses, and
/// every import says which names came in and which are new to the board.
@Suite struct ImportPeopleTests {
    typealias Trello = ImportTrelloTests

    /// Two cards: one for camillemartin and jiwoopark (with a comment by
    /// camillemartin), one for camillemartin.
    func export(in pm: PMBinary) throws -> String {
        var export = Trello.export()
        export["members"] = [
            ["id": Trello.trelloID(50), "username": "camillemartin", "fullName": "Camille Martin"],
            ["id": Trello.trelloID(51), "username": "jiwoopark", "fullName": "Ji-woo Park"],
        ]
        var cards = try #require(export["cards"] as? [[String: Any]])
        for index in cards.indices where cards[index]["name"] as? String == "Réunion équipe" {
            cards[index]["idMembers"] = [Trello.trelloID(50)]
        }
        export["cards"] = cards
        // The comment is camillemartin's: in Trello, a comment's author is one of the board's members.
        var actions = try #require(export["actions"] as? [[String: Any]])
        for index in actions.indices where actions[index]["memberCreator"] != nil {
            actions[index]["memberCreator"] = ["id": Trello.trelloID(50), "username": "camillemartin"]
        }
        export["actions"] = actions
        return try Trello.write(export, in: pm)
    }

    func mine(_ pm: PMBinary, _ user: String) throws -> [String] {
        let run = try pm.run(["list", "--mine", "--json"], ["PM_USER": user])
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        return tasks.compactMap { $0["title"] as? String }.sorted()
    }

    @Test(arguments: [
        ("en_US.UTF-8", "camille (camillemartin in the file)", "1 name is new to this board (jiwoopark)", "--member jiwoopark="),
        (
            "fr_FR.UTF-8", "camille (camillemartin dans le fichier)", "1 nom est nouveau sur ce tableau (jiwoopark)",
            "--member jiwoopark="
        ),
        ("ko_KR.UTF-8", "camille(파일에서는 camillemartin)", "처음 나오는 이름이 1개 있습니다(jiwoopark)", "--member jiwoopark="),
    ])
    func aMemberMappingGivesTrelloUsersTheTeamsNames(language: String, mapped: String, new: String, hint: String) throws {
        let pm = PMBinary(language: language)
        let file = try export(in: pm)
        // Without a mapping, --mine misses the cards, and the import says why and what to do.
        let dry = try pm.run(["import", "trello", file, "--dry-run"], ["PM_USER": "camille"])
        #expect(dry.status == 0 && dry.stdout.contains("camillemartin") && dry.stdout.contains("jiwoopark"), "\(dry.stdout)")
        #expect(dry.stdout.contains("--member camillemartin="), "\(dry.stdout)")
        #expect(!dry.stdout.contains("pm undo,") && !dry.stdout.contains("pm undo로"), "a dry run has nothing to undo")

        let run = try pm.run(["import", "trello", file, "--member", "camillemartin=camille"], ["PM_USER": "camille"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(mapped), "\(run.stdout)")
        #expect(run.stdout.contains(new) && run.stdout.contains(hint) && run.stdout.contains("pm undo"), "\(run.stdout)")
        #expect(try mine(pm, "camille") == ["Réunion équipe", "Write the launch post"])
        #expect(try mine(pm, "camillemartin").isEmpty, "the Trello name is gone")
        // Undone, then imported again with both names given: nothing new to say.
        #expect(try pm.run(["undo"], ["PM_USER": "camille"]).status == 0)
        let again = try pm.run(
            ["import", "trello", file, "--member", "camillemartin=camille", "--member", "JiWooPark=ji-woo"],
            ["PM_USER": "camille"])
        #expect(again.status == 0 && !again.stdout.contains("--member"), "\(again.stdout)")
        #expect(try mine(pm, "ji-woo") == ["Write the launch post"], "a Trello name is matched as typed in any case")
    }

    @Test func namesAlreadyOnTheBoardAreNotNew() throws {
        let pm = PMBinary()
        try pm.run(["add", "Theirs", "--to", "jiwoopark"])
        let run = try pm.run(["import", "trello", try export(in: pm), "--dry-run"], ["PM_USER": "camillemartin"])
        #expect(run.stdout.contains("Assignees of these tasks: camillemartin, jiwoopark."), "\(run.stdout)")
        #expect(!run.stdout.contains("new to this board"), "one is the reader, the other is on the board: \(run.stdout)")
    }

    @Test(arguments: [
        ("en_US.UTF-8", "--member names 'nobody', who is on no card of", "'camillemartin', 'jiwoopark'"),
        (
            "fr_FR.UTF-8", "--member nomme «\u{202F}nobody\u{202F}», qui n’est sur aucune carte de",
            "«\u{202F}camillemartin\u{202F}»"
        ),
        ("ko_KR.UTF-8", "--member에 쓴 'nobody'는", "'camillemartin', 'jiwoopark'"),
    ])
    func aMappingForSomeoneTheFileDoesNotHaveIsATypo(language: String, said: String, names: String) throws {
        let pm = PMBinary(language: language)
        let file = try export(in: pm)
        let run = try pm.run(["import", "trello", file, "--member", "nobody=camille"])
        #expect(run.status == 64 && run.stderr.contains(said) && run.stderr.contains(names), "\(run.stderr)")
        #expect(pm.boardBytes() == nil, "nothing was written")
        for bad in ["camille", "=camille", "camillemartin=", "camillemartin=a,b", "camillemartin=-x"] {
            let refused = try pm.run(["import", "trello", file, "--member", bad])
            #expect(refused.status == 64 && refused.stdout.isEmpty, "\(bad): \(refused.stderr)")
            #expect(pm.boardBytes() == nil, "\(bad)")
        }
    }

    @Test func aSheetsAssigneesAreMappedToo() throws {
        let pm = PMBinary()
        let sheet = pm.home.file("sheet.csv")
        try "title,assignees\nPlan,\"cmartin, ana\"\nShip,ana\n".write(toFile: sheet, atomically: true, encoding: .utf8)
        let run = try pm.run(["import", "csv", sheet, "--member", "cmartin=camille"], ["PM_USER": "camille"])
        #expect(run.status == 0 && run.stdout.contains("Assignees of these tasks: camille (cmartin in the file), ana."))
        #expect(try mine(pm, "camille") == ["Plan"])
        let empty = pm.home.file("nobody.csv")
        try "title\nAlone\n".write(toFile: empty, atomically: true, encoding: .utf8)
        let refused = try pm.run(["import", "csv", empty, "--member", "cmartin=camille"])
        #expect(refused.status == 64 && refused.stderr.contains("no card of") && refused.stderr.contains("has anyone"))
    }
}

/// Each source in its own words (issue 44, item 16): Taskwarrior's deleted
/// tasks are not "archived cards", a sheet's rows are not "cards"; an
/// archived Trello list whose cards stay out is not listed; what pm wrote in
/// the bodies is said, with its dates in ISO form.
@Suite struct ImportSourceWordsTests {
    @Test(arguments: [
        ("en_US.UTF-8", "1 deleted task was left out", "5 tasks were already on the board", "every task is already"),
        (
            "fr_FR.UTF-8", "1 tâche supprimée a été laissée de côté", "5 tâches étaient déjà sur le tableau",
            "toutes ses tâches sont déjà"
        ),
        ("ko_KR.UTF-8", "삭제된 작업 1개는 가져오지 않았습니다", "작업 5개는 이미 보드에 있어서", "모든 작업이 이미 보드에 있습니다"),
    ])
    func taskwarriorSpeaksOfTasks(language: String, leftOut: String, already: String, nothing: String) throws {
        let pm = PMBinary(language: language)
        let file = try ImportTaskwarriorTests.makeExport(for: pm)
        let first = try pm.run(["import", "taskwarrior", file])
        #expect(first.stdout.contains(leftOut), "\(first.stdout)")
        let second = try pm.run(["import", "taskwarrior", file])
        #expect(second.stdout.contains(already) && second.stdout.contains(nothing), "\(second.stdout)")
        for text in [first.stdout, second.stdout] {
            #expect(!text.contains("card") && !text.contains("carte") && !text.contains("카드"), "\(text)")
        }
    }

    @Test(arguments: [
        ("en_US.UTF-8", "2 rows were already on the board", "every row is already on the board"),
        ("fr_FR.UTF-8", "2 lignes étaient déjà sur le tableau", "toutes ses lignes sont déjà sur le tableau"),
        ("ko_KR.UTF-8", "행 2개는 이미 보드에 있어서", "모든 행이 이미 보드에 있습니다"),
    ])
    func aSheetSpeaksOfRows(language: String, already: String, nothing: String) throws {
        let pm = PMBinary(language: language)
        let sheet = pm.home.file("sheet.csv")
        try "title\nPlan\nShip\n".write(toFile: sheet, atomically: true, encoding: .utf8)
        #expect(try pm.run(["import", "csv", sheet]).status == 0)
        let again = try pm.run(["import", "csv", sheet])
        #expect(again.stdout.contains(already) && again.stdout.contains(nothing), "\(again.stdout)")
        let header = pm.home.file("header.csv")
        try "title\n".write(toFile: header, atomically: true, encoding: .utf8)
        let none = try pm.run(["import", "csv", header])
        #expect(!none.stdout.contains("card") && !none.stdout.contains("carte") && !none.stdout.contains("카드"), "\(none.stdout)")
    }

    @Test(arguments: [
        ("en_US.UTF-8", "'Old'", "2 archived cards were left out", "under headings in English", "2026-11-26 (year-month-day)"),
        (
            "fr_FR.UTF-8", "«\u{202F}Old\u{202F}»", "2 cartes archivées ont été laissées", "sous des intitulés en français",
            "année-mois-jour"
        ),
        ("ko_KR.UTF-8", "'Old'", "보관된 카드 2개는 가져오지 않았습니다", "한국어 항목 이름을 달아", "(연-월-일)"),
    ])
    func trelloSaysWhatItLeftOutAndWhatWentInTheBodies(
        language: String, list: String, leftOut: String, headings: String, dates: String
    ) throws {
        let pm = PMBinary(language: language)
        let file = try ImportTrelloTests.write(ImportTrelloTests.export(), in: pm)
        let run = try pm.run(["import", "trello", file, "--dry-run"])
        // The archived card of an open list, and the one of the archived list "Old".
        #expect(run.stdout.contains(leftOut), "\(run.stdout)")
        #expect(!run.stdout.contains(list), "an archived list whose cards stay out is not listed: \(run.stdout)")
        #expect(run.stdout.contains(headings), "\(run.stdout)")
        // Comments keep their dates in their own field: no body holds a date to explain.
        #expect(!run.stdout.contains(dates), "\(run.stdout)")
        let all = try pm.run(["import", "trello", file, "--dry-run", "--all"])
        #expect(all.stdout.contains(list), "with --all it is: \(all.stdout)")
    }
}
