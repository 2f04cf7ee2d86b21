import Foundation
import Testing

/// Imports carry a card's labels, priority, checklist and comments into
/// pm's own fields (issue 47, item 6), not into its body: Trello's labels,
/// checklists and comments, Taskwarrior's tags, priority and annotations,
/// with ids derived from the source so that importing again adds nothing.
@Suite struct ImportCardPartsTests {
    static func id(_ n: Int) -> String { ImportTrelloTests.trelloID(n) }

    /// A board with one card that has three labels (one named by its colour
    /// only, one that nobody could type), two checklists (listed out of
    /// order, some items ticked) and comments by two members.
    static func trelloExport() -> [String: Any] {
        let board = id(1)
        func card(_ n: Int, _ name: String, extra: [String: Any] = [:]) -> [String: Any] {
            var card: [String: Any] = [
                "id": id(n), "name": name, "desc": "", "closed": false, "idList": id(10), "idBoard": board, "pos": n,
                "idLabels": [], "idMembers": [], "shortUrl": "https://trello.com/c/abc\(n)",
            ]
            card.merge(extra) { _, new in new }
            return card
        }
        func item(_ n: Int, _ name: String, done: Bool, pos: Double) -> [String: Any] {
            ["id": id(n), "name": name, "state": done ? "complete" : "incomplete", "pos": pos]
        }
        func comment(_ n: Int, by member: Int, _ name: String, at date: String, _ text: String) -> [String: Any] {
            [
                "id": id(n), "type": "commentCard", "date": date, "idMemberCreator": id(member),
                "data": ["text": text, "card": ["id": id(20), "name": "Plan the launch"]],
                "memberCreator": ["id": id(member), "username": name, "fullName": name.capitalized],
            ]
        }
        return [
            "id": board, "name": "Launch",
            "labels": [
                ["id": id(40), "name": "Marketing", "color": "green"], ["id": id(41), "name": "", "color": "red"],
                ["id": id(42), "name": "a,b", "color": "blue"], ["id": id(43), "name": "Design", "color": "purple"],
            ],
            "lists": [["id": id(10), "name": "To Do", "closed": false, "pos": 1]],
            "cards": [
                card(
                    20, "Plan the launch",
                    extra: [
                        "desc": "The plan.", "idLabels": [id(40), id(41), id(42)], "idMembers": [id(50)],
                        "idChecklists": [id(61), id(60)],
                    ]),
                card(21, "Nothing else"),
            ],
            "members": [["id": id(50), "username": "ana"], ["id": id(51), "username": "lee"]],
            "checklists": [
                [
                    "id": id(61), "idCard": id(20), "name": "Launch", "pos": 2,
                    "checkItems": [
                        item(64, "Send invites", done: false, pos: 2), item(63, "Book room", done: true, pos: 1),
                    ],
                ],
                [
                    "id": id(60), "idCard": id(20), "name": "Prep", "pos": 1,
                    "checkItems": [
                        item(62, "Write\nagenda", done: false, pos: 5), item(65, "Draft slides", done: true, pos: 3),
                    ],
                ],
            ],
            "actions": [
                comment(70, by: 50, "ana", at: "2026-11-02T08:00:00.000Z", "Can we add numbers?"),
                ["id": id(71), "type": "updateCard", "date": "2026-11-02T08:01:00.000Z", "data": ["card": ["id": id(20)]]],
                comment(72, by: 51, "lee", at: "2026-11-01T17:30:00.000Z", "Room 2 is free.\nBooked."),
            ],
        ]
    }

    /// `pm show --json` of the task titled `title`.
    static func shown(_ pm: PMBinary, _ title: String) throws -> [String: Any] {
        let list = try #require(
            try JSONSerialization.jsonObject(with: Data(try pm.run(["list", "--json"]).stdout.utf8)) as? [[String: Any]])
        let id = try #require(list.first { $0["title"] as? String == title }?["id"] as? String)
        let run = try pm.run(["show", id, "--json"])
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    static func checklist(_ task: [String: Any]) -> [String] {
        (task["checklist"] as? [[String: Any]] ?? []).map { item in
            (item["done"] as? Bool == true ? "[x] " : "[ ] ") + (item["text"] as? String ?? "?")
        }
    }

    static func comments(_ task: [String: Any]) -> [String] {
        (task["comments"] as? [[String: Any]] ?? []).map { comment in
            ["by", "at", "text"].map { comment[$0] as? String ?? "?" }.joined(separator: " | ")
        }
    }

    @Test func aTrelloCardsLabelsChecklistsAndCommentsBecomeItsOwn() throws {
        let pm = PMBinary()
        let file = try ImportTrelloTests.write(Self.trelloExport(), in: pm)
        let run = try pm.run(["import", "trello", file])
        #expect(run.status == 0 && run.stdout.contains("Added 2 tasks"), "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("1 label or comment was left out") && run.stdout.contains("'a,b'"), "\(run.stdout)")
        let task = try Self.shown(pm, "Plan the launch")
        #expect(task["labels"] as? [String] == ["Marketing", "red"], "by name, else by colour; sorted")
        #expect(
            Self.checklist(task) == [
                "[x] Prep: Draft slides", "[ ] Prep: Write agenda", "[x] Launch: Book room", "[ ] Launch: Send invites",
            ], "one checklist: Trello's checklists by pos, then their items by pos, each with its checklist's name")
        #expect(
            Self.comments(task) == [
                "lee | 2026-11-01T17:30:00.000Z | Room 2 is free.\nBooked.",
                "ana | 2026-11-02T08:00:00.000Z | Can we add numbers?",
            ], "oldest first, by their authors, at their times")
        #expect(task["priority"] is NSNull)
        let body = task["body"] as? String ?? ""
        #expect(body.hasPrefix("The plan.") && body.contains("https://trello.com/c/abc20"), "\(body)")
        for moved in ["Marketing", "Book room", "Can we add numbers", "Prep", "Comments"] {
            #expect(!body.contains(moved), "\(moved) is no longer written into the body: \(body)")
        }
        let plain = try Self.shown(pm, "Nothing else")
        #expect(Self.checklist(plain).isEmpty && Self.comments(plain).isEmpty && plain["labels"] as? [String] == [])

        // Again: nothing new, nothing changed; a dry run says so too.
        let before = pm.boardBytes()
        let again = try pm.run(["import", "trello", file])
        #expect(again.stdout.contains("Nothing to add") && pm.boardBytes() == before, "\(again.stdout)")
        let dry = try pm.run(["import", "trello", file, "--dry-run"])
        #expect(dry.stdout.contains("Would add 0 tasks") && !dry.stdout.contains("+ '"), "\(dry.stdout)")
        // One undo takes the cards back with all they carry.
        #expect(try pm.run(["undo"]).status == 0)
        #expect(try pm.run(["list", "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func itemAndCommentIdsComeFromTrellosAndMemberRenamesAuthors() throws {
        let first = PMBinary()
        let second = PMBinary(language: "fr_FR.UTF-8")
        let ids = { (pm: PMBinary) throws -> [String] in
            let task = try Self.shown(pm, "Plan the launch")
            return (task["checklist"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                + (task["comments"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        }
        let plain = try first.run(["import", "trello", try ImportTrelloTests.write(Self.trelloExport(), in: first)])
        // lee only commented: new to the board all the same, as only a comment's author may rewrite it.
        #expect(plain.status == 0 && plain.stdout.contains("2 names are new to this board (ana, lee)"), "\(plain.stdout)")
        let run = try second.run([
            "import", "trello", try ImportTrelloTests.write(Self.trelloExport(), in: second), "--member", "lee=leeseo",
        ])
        #expect(run.status == 0, "a commenter who is no card's member can be renamed too: \(run.stderr)")
        #expect(run.stdout.contains("1 étiquette ou commentaire a été laissé de côté"), "\(run.stdout)")
        #expect(run.stdout.contains("1 nom est nouveau sur ce tableau (ana)"), "leeseo is the team's name: \(run.stdout)")
        let a = try ids(first)
        #expect(a.count == 6 && a.allSatisfy { $0.count == 12 && $0.allSatisfy(\.isHexDigit) }, "\(a)")
        #expect(try ids(second) == a, "two boards, one file: the same items and comments")
        let task = try Self.shown(second, "Plan the launch")
        #expect(Self.comments(task).first?.hasPrefix("leeseo | ") == true, "\(Self.comments(task))")
        // Data, not a sentence: the same text whoever imports, so two teammates' imports agree.
        #expect(Self.checklist(task) == Self.checklist(try Self.shown(first, "Plan the launch")))
    }

    @Test func taskwarriorTagsPriorityAndAnnotationsBecomeLabelsPriorityAndComments() throws {
        let pm = PMBinary()
        let uuid = { (n: Int) in "0f0e0d0c-0b0a-4908-8706-0504030201\(n)" }
        let export = """
            [{"uuid":"\(uuid(10))","description":"Write the report","status":"pending","entry":"20261101T090000Z",\
            "tags":["work","ui"],"priority":"M","project":"Q4","annotations":[\
            {"entry":"20261102T100000Z","description":"Ask ana"},{"entry":"20261101T120000Z","description":"First note"}]},
            {"uuid":"\(uuid(11))","description":"Low one","priority":"L","owner":"lee",\
            "annotations":[{"entry":"2026-11-03T00:00:00Z","description":"By the owner"}]},
            {"uuid":"\(uuid(12))","description":"Urgent one","priority":"H","tags":["-x"]},
            {"uuid":"\(uuid(13))","description":"Its own scale","priority":"X"}]
            """
        let file = pm.home.file("tw.json")
        try export.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try pm.run(["import", "taskwarrior", file])
        #expect(run.status == 0 && run.stdout.contains("Added 4 tasks"), "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("1 label or comment was left out") && run.stdout.contains("'-x'"), "\(run.stdout)")
        let report = try Self.shown(pm, "Write the report")
        #expect(report["labels"] as? [String] == ["ui", "work"] && report["priority"] as? String == "normal")
        #expect(
            Self.comments(report) == [
                "ji-woo | 2026-11-01T12:00:00.000Z | First note", "ji-woo | 2026-11-02T10:00:00.000Z | Ask ana",
            ], "by the importer, at the annotations' times, oldest first")
        let body = report["body"] as? String ?? ""
        #expect(body == "Project: Q4", "only what pm has no field for: \(body)")
        let low = try Self.shown(pm, "Low one")
        #expect(low["priority"] as? String == "low" && Self.comments(low) == ["lee | 2026-11-03T00:00:00.000Z | By the owner"])
        #expect(try Self.shown(pm, "Urgent one")["priority"] as? String == "high")
        let own = try Self.shown(pm, "Its own scale")
        #expect(own["priority"] is NSNull && own["body"] as? String == "Priority: X", "\(own)")
        let before = pm.boardBytes()
        #expect(try pm.run(["import", "taskwarrior", file]).stdout.contains("Nothing to add"))
        #expect(pm.boardBytes() == before, "importing again adds and changes nothing")
    }
}
