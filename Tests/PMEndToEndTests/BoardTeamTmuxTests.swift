import Foundation
import PMTestSupport
import Testing

/// `pm board`'s team keys in a real terminal (DESIGN.md §13): `/` filters
/// as Korean is typed, `@` shows only mine, `T` takes a card, a card others
/// changed since I last looked is marked, and the status line says so.
@Suite(.serialized, .onOwnThreads) struct BoardTeamTmuxTests {
    typealias Session = BoardTmuxTests.Session

    @Test func filterMineTakeAndNewsMarksInKorean() throws {
        var pm = PMBinary(language: "ko_KR.UTF-8")
        pm.environment["PM_NOW"] = nil
        try pm.run(["add", "Budget review", "--to", "ji-woo"])
        let design = try pm.run(["add", "디자인 검토", "--to", "lee"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try pm.run(["add", "회의 준비"])
        try pm.run(["news"])  // ji-woo has looked: what lee does next is news
        try pm.run(["edit", design, "--body", "시안 두 개"], ["PM_USER": "lee"])
        let session = try Session(pm: pm, language: "ko_KR.UTF-8")
        defer { session.close() }
        #expect(session.waitFor { $0.contains("할 일 (3)") && $0.contains("• 디자인 검토") }, "\(session.screen)")
        #expect(session.screen.contains("@lee") && session.screen.contains("다른 사람의 변경 1개"), "\(session.screen)")
        // Mine: ji-woo's card and the unassigned one; the status line says the board is filtered.
        try session.keys("@")
        #expect(session.waitFor { !$0.contains("디자인 검토") && $0.contains("회의 준비") && $0.contains("필터 적용") }, "\(session.screen)")
        try session.keys("@")
        #expect(session.waitFor { $0.contains("디자인 검토") && !$0.contains("필터 적용") }, "\(session.screen)")
        // `/` and Korean typed as syllables: letters are text here, not keys.
        try session.keys("/")
        try session.raw("회의")
        #expect(
            session.waitFor { !$0.contains("Budget review") && $0.contains("회의 준비") && $0.contains("필터: 회의") },
            "\(session.screen)")
        try session.keys("Enter")
        #expect(session.waitFor { $0.contains("필터 적용('회의')") }, "\(session.screen)")
        try session.keys("Escape")
        #expect(session.waitFor { $0.contains("Budget review") && $0.contains("디자인 검토") }, "\(session.screen)")
        // Take: the selected card (the filter's last, still selected: one up is lee's) is assigned to me, on disk.
        #expect(session.screen.contains("▌회의 준비"), "\(session.screen)")
        try session.keys("Up")
        try session.keys("T")
        #expect(session.waitFor { $0.contains("@ji-woo @lee") }, "\(session.screen)")
        let shown = try pm.run(["show", design, "--json"]).stdout
        #expect(shown.contains("\"ji-woo\"") && shown.contains("\"lee\""), "\(shown)")
        try session.keys("q")
        #expect(session.waitFor { $0.contains("EXITED-0") }, "\(session.screen)")
    }

    /// The form names who does a card: added with names, then one taken off
    /// in the edit form (only that name goes: the log says so).
    @Test func theFormAssignsAndUnassigns() throws {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        let session = try Session(pm: pm)
        defer { session.close() }
        #expect(session.waitFor { $0.contains("TODO (0)") }, "\(session.screen)")
        try session.keys("a")
        #expect(session.waitFor { $0.contains("New card") && $0.contains("Assigned to") }, "\(session.screen)")
        try session.raw("Plan the offsite")
        for _ in 0..<3 { try session.keys("Tab") }
        try session.raw("lee, 지우")
        try session.keys("Enter")
        #expect(session.waitFor { $0.contains("TODO (1)") && $0.contains("@lee @지우") }, "\(session.screen)")
        try session.keys("e")
        #expect(session.waitFor { $0.contains("lee, 지우") }, "\(session.screen)")
        for _ in 0..<3 { try session.keys("Tab") }
        try session.keys("End")
        for _ in 0..<4 { try session.keys("BSpace") }
        try session.keys("Enter")
        #expect(session.waitFor { $0.contains("Unassigned 지우 from 'Plan the offsite'.") }, "\(session.screen)")
        let list = try pm.run(["list", "--json"]).stdout
        #expect(list.contains("\"assignees\": [\"lee\"]"), "\(list)")
        // A name nobody could be assigned by is refused, and the card is unchanged.
        try session.keys("e")
        for _ in 0..<3 { try session.keys("Tab") }
        try session.raw(",,")
        try session.keys("Enter")
        #expect(session.waitFor { $0.contains("is not a name") }, "\(session.screen)")
        #expect(try pm.run(["list", "--json"]).stdout == list)
        try session.keys("Escape")
        try session.keys("y")
        try session.keys("q")
        #expect(session.waitFor { $0.contains("EXITED-0") }, "\(session.screen)")
    }

    /// `pm board` takes the filters `pm list` takes, and says it is filtered;
    /// the keys' filter narrows it further.
    @Test func theBoardOpensFilteredAsListIs() throws {
        var pm = PMBinary(language: "fr_FR.UTF-8")
        pm.environment["PM_NOW"] = nil
        try pm.run(["add", "Budget", "--to", "lee"])
        try pm.run(["add", "Réunion", "--to", "lee"])
        try pm.run(["add", "Maquette", "--to", "ana"])
        let session = try Session(
            pm: pm, language: "fr_FR.UTF-8", command: [PMBinary.path, "board", "--to", "lee", "--board", pm.boardPath])
        defer { session.close() }
        #expect(
            session.waitFor { $0.contains("À FAIRE (2)") && !$0.contains("Maquette") && $0.contains("Vue filtrée (--to lee)") },
            "\(session.screen)")
        try session.keys("/")
        try session.raw("reunion")  // accents ignored, as --grep
        #expect(
            session.waitFor { $0.contains("À FAIRE (1)") && $0.contains("Réunion") && !$0.contains("Budget") },
            "\(session.screen)")
        try session.keys("Escape")
        #expect(session.waitFor { $0.contains("À FAIRE (2)") && !$0.contains("Maquette") }, "\(session.screen)")
        try session.keys("q")
        #expect(session.waitFor { $0.contains("EXITED-0") }, "\(session.screen)")
    }
    /// A filter that empties the selected column moves the selection to a
    /// card it shows: the keys act on a card on screen, not "No card
    /// selected" (issue 44, item 9).
    @Test func aFilterThatEmptiesTheSelectedColumnSelectsACardItShows() throws {
        let pm = PMBinary()
        try pm.run(["add", "Budget"])
        let seminar = try pm.run(["add", "Seminar"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try pm.run(["move", seminar, "doing"])
        let session = try Session(pm: pm)
        defer { session.close() }
        #expect(session.waitFor { $0.contains("TODO (1)") && $0.contains("DOING (1)") }, "\(session.screen)")
        try session.keys("2")
        try session.keys("/")
        try session.raw("budg")
        #expect(session.waitFor { $0.contains("DOING (0)") && !$0.contains("Seminar") }, "\(session.screen)")
        try session.keys("Enter")
        try session.keys("d")
        #expect(
            session.waitFor { $0.contains("Budget") && $0.contains("y: yes") && !$0.contains("No card selected") },
            "the delete question is about the card shown: \(session.screen)")
        try session.keys("Escape")
        try session.keys("q")
        #expect(session.waitFor { $0.contains("EXITED-0") }, "\(session.screen)")
        #expect(try pm.run(["list"]).stdout.contains("Budget"), "nothing deleted")
    }
    /// One card, one form (issue 44, item 14): `pm list` and `pm board`
    /// show a card's deadline, then who does it, in the same words ("due
    /// today" on its day, the date otherwise), in every language.
    @Test(arguments: [
        ("en_US.UTF-8", "due today", "due Mar 1"), ("fr_FR.UTF-8", "échéance aujourd’hui", "1er mars"),
        ("ko_KR.UTF-8", "오늘 마감", "3월 1일"),
    ])
    func listAndBoardShowACardAlike(language: String, today: String, later: String) throws {
        var pm = PMBinary(language: language)
        pm.environment["PM_NOW"] = "2026-11-21T10:00:00Z"
        try pm.run(["add", "Budget", "--due", "2026-11-21", "--to", "ana"])
        try pm.run(["add", "Plan", "--due", "2027-03-01", "--to", "lee"])
        func order(_ text: String) -> [String] {
            text.split(separator: "\n").map(String.init).compactMap { line in
                [today, later, "@ana", "@lee"].first { line.contains($0) }
            }
        }
        let list = try pm.run(["list"]).stdout
        #expect(order(list) == [today, "@ana", later, "@lee"], "\(list)")
        let session = try Session(pm: pm, language: language)
        defer { session.close() }
        #expect(session.waitFor { $0.contains("@lee") }, "\(session.screen)")
        #expect(order(session.screen) == order(list), "\(session.screen)")
        try session.keys("q")
        #expect(session.waitFor { $0.contains("EXITED-0") }, "\(session.screen)")
    }
    /// `?` lists the keys an AZERTY keyboard types the column digits with
    /// (issue 44, item 20), beside the digits, in every language.
    @Test(arguments: [("en_US.UTF-8", "go to TODO"), ("fr_FR.UTF-8", "aller à la colonne À FAIRE"), ("ko_KR.UTF-8", "할 일 열로 이동")])
    func helpNamesTheAzertyKeysOfTheColumns(language: String, goTo: String) throws {
        let pm = PMBinary(language: language)
        try pm.run(["add", "Card"])
        let session = try Session(pm: pm, language: language)
        defer { session.close() }
        #expect(session.waitFor { $0.contains("Card") }, "\(session.screen)")
        try session.keys("?")
        #expect(
            session.waitFor { screen in
                screen.split(separator: "\n").contains { $0.contains("1 &") && $0.contains(goTo) }
            }, "\(language): \(session.screen)")
        #expect(session.screen.contains("2 é") && session.screen.contains("3 \""), "\(session.screen)")
        try session.keys("Escape")
        try session.keys("q")
        #expect(session.waitFor { $0.contains("EXITED-0") }, "\(session.screen)")
    }
}
