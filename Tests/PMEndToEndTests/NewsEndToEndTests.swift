import Foundation
import Testing

/// `pm news` through the binary (DESIGN.md §13): what others changed since
/// I last looked, before and after a sync, in the reader's language; the
/// count under `pm list`; the mark kept per person.
@Suite struct NewsEndToEndTests {
    typealias Copy = SyncEndToEndTests.Copy

    static let said: [String: (recent: String, header3: String, camille: String, none: String, waiting3: String)] = [
        "en_US.UTF-8": (
            "1 recent change by others", "3 changes by others since you last looked:",
            "  camille: 1 added · 1 moved · 1 edited", "Nothing new from others since you last looked.",
            "3 changes by others since you last looked · pm news"
        ),
        "fr_FR.UTF-8": (
            "1 modification récente faite par d’autres",
            "3 modifications faites par d’autres depuis votre dernière visite :",
            "  camille : 1 tâche ajoutée · 1 tâche déplacée · 1 tâche modifiée",
            "Rien de nouveau de la part des autres depuis votre dernière visite.",
            "3 modifications faites par d’autres depuis votre dernière visite · pm news"
        ),
        "ko_KR.UTF-8": (
            "다른 사람의 최근 변경 1개", "마지막으로 본 뒤 다른 사람의 변경 3개:", "  camille 님: 1개 추가 · 1개 옮김 · 1개 수정",
            "마지막으로 본 뒤 다른 사람이 바꾼 것이 없습니다.", "다른 사람의 변경 3개 · pm news"
        ),
    ]

    @Test(arguments: ["en_US.UTF-8", "fr_FR.UTF-8", "ko_KR.UTF-8"])
    func othersChangesBeforeAndAfterASync(language: String) throws {
        let said = try #require(Self.said[language])
        var pm = SyncEndToEndTests().livePM()
        pm.environment["LANG"] = language
        let share = pm.home.file("share")
        let (camille, jiwoo) = (
            Copy(pm: pm, board: pm.home.file("camille/board.json"), user: "camille"),
            Copy(pm: pm, board: pm.home.file("ji-woo/board.json"), user: "ji-woo")
        )
        for person in [camille, jiwoo] { try person.run(["remote", "add", share]) }
        let plan = try camille.id(["add", "Plan the offsite"])
        try camille.run(["sync"])
        try jiwoo.run(["sync"])
        // The first look: the newest changes by others, then marked.
        let first = try jiwoo.run(["news", "--color", "never"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix(said.recent) && first.stdout.contains("Plan the offsite"), "\(first.stdout)")
        #expect(try jiwoo.run(["news"]).stdout == said.none + "\n")
        // Camille changes three things; nothing has arrived yet.
        try camille.run(["move", plan, "doing"])
        let budget = try camille.id(["add", "\"by\":\"ji-woo\" budget"])
        try camille.run(["assign", budget, "ji-woo"])
        try camille.run(["sync"])
        #expect(try !jiwoo.run(["list"]).stdout.contains("pm news"), "nothing arrived before the sync")
        try jiwoo.run(["sync"])
        let list = try jiwoo.run(["list"]).stdout
        #expect(list.contains(said.waiting3 + "\n"), "a title naming ji-woo is still camille's change: \(list)")
        #expect(try jiwoo.run(["news", "--peek"]).status == 0)
        let news = try jiwoo.run(["news", "--color", "never"]).stdout
        let lines = news.components(separatedBy: "\n")
        #expect(lines.first == said.header3, "\(news)")
        #expect(lines.dropFirst().first == said.camille, "\(news)")
        // Card by card, the most recently changed first.
        let budgetAt = try #require(news.range(of: "\n\"by\":\"ji-woo\" budget\n"))
        let planAt = try #require(news.range(of: "\nPlan the offsite\n"))
        #expect(budgetAt.lowerBound < planAt.lowerBound, "\(news)")
        #expect(try jiwoo.run(["news"]).stdout == said.none + "\n", "marked seen")
        #expect(try !jiwoo.run(["list"]).stdout.contains("pm news"))
        // Your own changes are never news, to you.
        try jiwoo.run(["edit", plan, "--body", "Lyon"])
        #expect(try jiwoo.run(["news"]).stdout == said.none + "\n")
        #expect(try !jiwoo.run(["list"]).stdout.contains("pm news"))
    }

    @Test func peekShowsWithoutMarkingAndJSONIsForScripts() throws {
        let pm = PMBinary()
        try pm.run(["add", "Mine"])
        try pm.run(["news"])
        try pm.run(["add", "Theirs"], ["PM_USER": "lee"])
        #expect(try pm.run(["news", "--peek", "--json"]).stdout.contains("\"by\": \"lee\""))
        #expect(try pm.run(["list"]).stdout.contains("1 change by others since you last looked · pm news"))
        #expect(try pm.run(["news", "--json"]).stdout.contains("\"Theirs\""))
        #expect(try pm.run(["news", "--json"]).stdout == "[]\n")
    }

    @Test func aDamagedOrForeignMarkIsNeverGuessed() throws {
        let pm = PMBinary()
        try pm.run(["add", "Mine"])
        try pm.run(["news"])
        let state = pm.home.file(".local/state/pm")
        let mark = try #require(
            try FileManager.default.contentsOfDirectory(atPath: state).first { $0.hasPrefix("news-") }.map { state + "/" + $0 })
        // A mark past the log's end (the log was replaced since): a first look again, never a crash.
        try Data("{\"events\": 99, \"length\": 999999}\n".utf8).write(to: URL(fileURLWithPath: mark))
        try pm.run(["add", "Theirs"], ["PM_USER": "lee"])
        let again = try pm.run(["news"])
        #expect(again.status == 0 && again.stdout.hasPrefix("1 recent change by others"), "\(again.stdout)")
        #expect(!(try pm.run(["list"]).stdout.contains("pm news")))
        // Damaged: refused with its place, exit 65, and left as it is.
        try Data("{\"events\": \"x\"}\n".utf8).write(to: URL(fileURLWithPath: mark))
        let damaged = try pm.run(["news"])
        #expect(damaged.status == 65, "\(damaged.stderr)")
        #expect(damaged.stderr.contains(mark) && damaged.stderr.contains("line 1"), "\(damaged.stderr)")
        #expect(try String(contentsOfFile: mark, encoding: .utf8) == "{\"events\": \"x\"}\n")
        #expect(try pm.run(["list"]).status == 0, "a damaged mark never stops the board being listed")
        // A symlink in its place is refused, and not followed.
        try FileManager.default.removeItem(atPath: mark)
        try FileManager.default.createSymbolicLink(atPath: mark, withDestinationPath: pm.home.file("elsewhere"))
        #expect(try pm.run(["news"]).status != 0)
        #expect(!FileManager.default.fileExists(atPath: pm.home.file("elsewhere")))
    }

    /// News is by copy, not by name (issue 43, item 9): a teammate whose
    /// copy signs as itself but names alice as the author no longer hides
    /// the change from alice's news — it shows, under the name it claims.
    @Test func aChangeMadeElsewhereInMyNameIsNews() throws {
        let pm = SyncEndToEndTests().livePM()
        let share = pm.home.file("share")
        let alice = Copy(pm: pm, board: pm.home.file("alice/board.json"), user: "alice")
        let mallory = Copy(pm: pm, board: pm.home.file("mallory/board.json"), user: "alice")
        for person in [alice, mallory] { try person.run(["remote", "add", share]) }
        let id = try alice.id(["add", "Budget"])
        try alice.run(["sync"])
        try mallory.run(["sync"])
        #expect(try alice.run(["news"]).status == 0, "alice has looked")
        try mallory.run(["edit", id, "--title", "Budget (cut by half)"])
        try mallory.run(["sync"])
        try alice.run(["add", "Her own"])
        try alice.run(["sync"])
        let waiting = try alice.run(["list"]).stdout
        #expect(waiting.contains("1 change by others"), "\(waiting)")
        let news = try alice.run(["news", "--color", "never"]).stdout
        #expect(news.contains("Budget (cut by half)"), "\(news)")
        #expect(!news.contains("Her own"), "her own change, made here, is no news: \(news)")
    }
}

/// `pm news` after an import, its undo and its redo (issue 44, item 6): an
/// import is one line, a change and what took it back fold into nothing,
/// and the person's line counts what is left.
@Suite struct NewsFoldEndToEndTests {
    static let said: [String: (person: String, line: String, solo: String, undone: String, removed: String)] = [
        "en_US.UTF-8": (
            "  camille: 5 imported · 1 added · 12 changes that cancel out", "Imported 5 tasks in one step.",
            "Added 'Solo'.", "Took back an import of 5 tasks.", "  camille: 6 removed"
        ),
        "fr_FR.UTF-8": (
            "  camille\u{00A0}: 5 tâches importées · 1 tâche ajoutée · 12 modifications qui s’annulent",
            "5 tâches importées en une fois.", "«\u{202F}Solo\u{202F}» ajoutée.", "Import de 5 tâches annulé.",
            "  camille\u{00A0}: 6 tâches supprimées"
        ),
        "ko_KR.UTF-8": (
            "  camille 님: 5개 가져옴 · 1개 추가 · 서로 상쇄된 변경 12개", "작업 5개를 한 번에 가져왔습니다.", "'Solo'를 추가했습니다.",
            "작업 5개 가져오기를 되돌렸습니다.", "  camille 님: 6개 삭제"
        ),
    ]

    @Test(arguments: ["en_US.UTF-8", "fr_FR.UTF-8", "ko_KR.UTF-8"])
    func anImportIsOneLineAndAChangeWithItsUndoIsNothing(language: String) throws {
        let said = try #require(Self.said[language])
        let pm = PMBinary(language: language)
        let camille = ["PM_USER": "camille"]
        try pm.run(["add", "Mine"])
        try pm.run(["news"])
        let file = try ImportTrelloTests.write(ImportTrelloTests.export(), in: pm)
        #expect(try pm.run(["import", "trello", file], camille).status == 0)
        #expect(try pm.run(["undo"], camille).status == 0)
        #expect(try pm.run(["redo"], camille).status == 0)
        let solo = try pm.run(["add", "Solo", "--json"], camille).stdout
        let id = try #require(
            (try JSONSerialization.jsonObject(with: Data(solo.utf8)) as? [String: Any])?["id"] as? String)
        #expect(try pm.run(["edit", id, "--title", "Solo 2"], camille).status == 0)
        #expect(try pm.run(["undo"], camille).status == 0)

        let news = try pm.run(["news", "--color", "never"]).stdout
        let lines = news.components(separatedBy: "\n")
        #expect(lines.contains(said.person), "\(news)")
        #expect(lines.filter { $0.hasSuffix(said.line) }.count == 1, "\(news)")
        #expect(lines.contains { $0.hasSuffix(said.solo) } && !news.contains("Solo 2"), "\(news)")
        #expect(!news.contains("Write the launch post") && !news.contains("Réunion équipe"), "no card each: \(news)")
        // Scripts still read every change.
        #expect(try pm.run(["news", "--json", "--peek"]).stdout.isEmpty == false)

        // Seen, then taken back: that is news, in one line.
        try pm.run(["news"])
        #expect(try pm.run(["undo"], camille).status == 0)  // Solo's add
        #expect(try pm.run(["undo"], camille).status == 0)  // the import (its redo)
        let after = try pm.run(["news", "--color", "never"]).stdout
        #expect(after.contains(said.undone) && after.contains(said.removed + "\n"), "\(after)")
        #expect(!after.contains("Write the launch post"), "\(after)")
    }
}
