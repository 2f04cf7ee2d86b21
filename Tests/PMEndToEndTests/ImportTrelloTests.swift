import Foundation
import Testing

/// `pm import trello` (issue 25) on an export shaped as Trello writes one:
/// ids with their creation time, lists with `pos`, labels, checklists,
/// members, comments as actions, archived lists and cards.
@Suite struct ImportTrelloTests {
    /// A Trello-style id: 8 hex digits of seconds, then 16 more.
    static func trelloID(_ n: Int) -> String { String(format: "6543%04x%016x", n, n * 7919) }

    static func export(extraCard: [String: Any]? = nil) -> [String: Any] {
        let board = trelloID(1)
        func list(_ n: Int, _ name: String, _ pos: Double, closed: Bool = false) -> [String: Any] {
            ["id": trelloID(n), "name": name, "closed": closed, "pos": pos, "idBoard": board, "subscribed": false]
        }
        func card(_ n: Int, _ name: String, list: Int, pos: Double, extra: [String: Any] = [:]) -> [String: Any] {
            var card: [String: Any] = [
                "id": trelloID(n), "name": name, "desc": "", "closed": false, "idList": trelloID(list), "idBoard": board,
                "pos": pos, "due": NSNull(), "dueComplete": false, "idLabels": [], "labels": [], "idMembers": [],
                "idChecklists": [], "shortUrl": "https://trello.com/c/abc\(n)", "url": "https://trello.com/c/abc\(n)/x",
                "dateLastActivity": "2026-11-01T09:00:00.000Z", "badges": ["comments": 0, "checkItems": 0],
            ]
            card.merge(extra) { _, new in new }
            return card
        }
        var cards = [
            card(
                20, "Write the launch post", list: 10, pos: 2,
                extra: [
                    "desc": "Draft in the shared doc.\r\nKeep it short.", "due": "2026-12-03T23:30:00.000Z",
                    "idLabels": [trelloID(40)], "labels": [["id": trelloID(40), "name": "Marketing", "color": "green"]],
                    "idMembers": [trelloID(50), trelloID(51)], "idChecklists": [trelloID(60)],
                ]),
            card(21, "Réunion équipe", list: 11, pos: 1),
            card(22, "보고서 검토", list: 12, pos: 1, extra: ["due": "2026-11-02T10:00:00.000Z"]),
            card(23, "An archived card", list: 10, pos: 3, extra: ["closed": true]),
            card(24, "On an archived list", list: 13, pos: 1),
            card(25, "Someday maybe", list: 14, pos: 1),
            card(26, "First in To Do", list: 10, pos: 1),
        ]
        if let extraCard { cards.append(extraCard) }
        return [
            "id": board, "name": "Launch", "desc": "", "closed": false, "url": "https://trello.com/b/xyz/launch",
            "prefs": ["background": "blue", "permissionLevel": "private"],
            "labels": [["id": trelloID(40), "name": "Marketing", "color": "green"]],
            "lists": [
                list(12, "완료", 3), list(10, "To Do", 1), list(11, "En cours", 2), list(13, "Old", 4, closed: true),
                list(14, "Ideas 💡", 5),
            ],
            "cards": cards,
            "members": [
                ["id": trelloID(50), "username": "ana", "fullName": "Ana Lima"],
                ["id": trelloID(51), "username": "ji-woo", "fullName": "Ji-woo Park"],
            ],
            "checklists": [
                [
                    "id": trelloID(60), "idCard": trelloID(20), "name": "Before publishing", "pos": 1,
                    "checkItems": [
                        ["id": trelloID(61), "name": "Proofread", "state": "complete", "pos": 2],
                        ["id": trelloID(62), "name": "Pick a picture", "state": "incomplete", "pos": 1],
                    ],
                ]
            ],
            "actions": [
                [
                    "id": trelloID(70), "type": "commentCard", "date": "2026-11-02T08:00:00.000Z",
                    "data": ["text": "Can we add numbers?", "card": ["id": trelloID(20), "name": "Write the launch post"]],
                    "memberCreator": ["id": trelloID(50), "username": "ana", "fullName": "Ana Lima"],
                ],
                [
                    "id": trelloID(71), "type": "updateCard", "date": "2026-11-02T08:01:00.000Z",
                    "data": ["card": ["id": trelloID(20)]],
                ],
            ],
        ]
    }

    static func write(_ object: Any, in pm: PMBinary, name: String = "trello.json") throws -> String {
        let path = pm.home.file(name)
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]).write(
            to: URL(fileURLWithPath: path))
        return path
    }

    func tasks(_ pm: PMBinary) throws -> [String: [String: Any]] {
        let run = try pm.run(["list", "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        var result: [String: [String: Any]] = [:]
        for task in list { result[task["title"] as? String ?? ""] = task }
        return result
    }

    @Test(arguments: [
        ("en_US.UTF-8", "List 'To Do': 2 cards, to TODO.", "Link: https://trello.com/c/abc", "Added 5 tasks"),
        (
            "fr_FR.UTF-8", "Liste « To Do » : 2 cartes, vers À FAIRE.", "Lien\u{00A0}: https://trello.com/c/abc",
            "5 tâches ajoutées"
        ),
        ("ko_KR.UTF-8", "목록 'To Do': 카드 2개 → 할 일", "링크: https://trello.com/c/abc", "작업 5개를 한 번에 추가했습니다"),
    ])
    func aTrelloBoardComesInByItsListNamesInAnyLanguage(language: String, listLine: String, link: String, added: String)
        throws
    {
        let pm = PMBinary(language: language)
        let file = try Self.write(Self.export(), in: pm)
        let dry = try pm.run(["import", "trello", file, "--dry-run"])
        #expect(dry.status == 0 && dry.stdout.contains(listLine), "\(dry.stdout)\(dry.stderr)")
        #expect(!FileManager.default.fileExists(atPath: pm.boardPath))
        let run = try pm.run(["import", "trello", file])
        #expect(run.status == 0 && run.stdout.contains(added), "\(run.stdout)\(run.stderr)")
        let tasks = try tasks(pm)
        #expect(Set(tasks.keys) == ["Write the launch post", "Réunion équipe", "보고서 검토", "Someday maybe", "First in To Do"])
        #expect(tasks["Réunion équipe"]?["state"] as? String == "doing", "En cours")
        #expect(tasks["보고서 검토"]?["state"] as? String == "done", "완료")
        #expect(tasks["Someday maybe"]?["state"] as? String == "todo", "an unknown name: TODO, and said so")
        let post = try #require(tasks["Write the launch post"])
        #expect(post["due"] as? String == "2026-12-03", "UTC reader: that day")
        #expect(post["assignees"] as? [String] == ["ana", "ji-woo"])
        let body = post["body"] as? String ?? ""
        #expect(body.hasPrefix("Draft in the shared doc.\nKeep it short.") && body.contains(link), "\(body)")
        // Labels, checklists and comments are the task's own (ImportCardPartsTests), not text in its body.
        #expect(!body.contains("Marketing") && !body.contains("Proofread") && !body.contains("Can we add numbers?"))
        #expect(post["labels"] as? [String] == ["Marketing"])
        #expect(ImportCardPartsTests.checklist(post) == ["[ ] Pick a picture", "[x] Proofread"], "checklist order")
        #expect(ImportCardPartsTests.comments(post) == ["ana | 2026-11-02T08:00:00.000Z | Can we add numbers?"])
        // Twice: nothing more.
        let before = pm.boardBytes()
        #expect(try pm.run(["import", "trello", file]).status == 0)
        let again = try self.tasks(pm)
        #expect(pm.boardBytes() == before && again.count == 5)
        // One undo: all of it.
        #expect(try pm.run(["undo"]).status == 0)
        #expect(try self.tasks(pm).isEmpty)
    }

    @Test func anImportSomeoneChangedSinceIsUndoneWholeOrNotAtAll() throws {
        let pm = PMBinary()
        let file = try Self.write(Self.export(), in: pm)
        #expect(try pm.run(["import", "trello", file]).status == 0)
        let before = try tasks(pm)
        let id = try #require(before["Réunion équipe"]?["id"] as? String)
        #expect(try pm.run(["move", String(id.prefix(8)), "done"], ["PM_USER": "lee"]).status == 0)
        let board = pm.boardBytes()
        let undo = try pm.run(["undo"])
        #expect(undo.status == 1 && undo.stderr.contains("lee"), "\(undo.stderr)")
        #expect(pm.boardBytes() == board, "not one card of the import was taken back")
        let skip = try pm.run(["undo", "--skip"])
        #expect(skip.status == 0 && skip.stdout.contains("one step of 5 changes"), "\(skip.stdout)")
        #expect(try pm.run(["undo"]).status == 1, "nothing older to undo")
        #expect(try tasks(pm).count == 5)
    }

    @Test func mapAndAllChooseWhatComesAndWhere() throws {
        let pm = PMBinary()
        let file = try Self.write(Self.export(), in: pm)
        let run = try pm.run(["import", "trello", file, "--map", "ideas 💡=en cours", "--all"])
        #expect(run.status == 0 && run.stdout.contains("List 'Ideas 💡': 1 card, to DOING."), "\(run.stdout)\(run.stderr)")
        let tasks = try tasks(pm)
        #expect(tasks["Someday maybe"]?["state"] as? String == "doing")
        #expect(tasks["An archived card"] != nil && tasks["On an archived list"] != nil, "--all")
        // A --map for a list the file lacks is a typo: refused before anything is written.
        let other = PMBinary()
        let typo = try other.run(["import", "trello", try Self.write(Self.export(), in: other), "--map", "Idees=doing"])
        #expect(typo.status == 64 && typo.stderr.contains("'Idees'") && typo.stderr.contains("'Ideas 💡'"), "\(typo.stderr)")
        #expect(!FileManager.default.fileExists(atPath: other.boardPath))
        let malformed = try other.run(["import", "trello", try Self.write(Self.export(), in: other), "--map", "doing"])
        #expect(malformed.status == 64)
    }

    @Test func hostileOrDamagedExportsAreRefusedAndNothingIsWritten() throws {
        let pm = PMBinary(language: "fr_FR.UTF-8")
        try pm.run(["add", "Déjà là"])
        let before = pm.boardBytes()
        let good = try JSONSerialization.data(withJSONObject: Self.export(), options: [.prettyPrinted, .sortedKeys])
        var cases: [(String, Data, String)] = [
            ("truncated", good.prefix(good.count / 2), "trop tôt"),
            (
                "escape",
                try JSONSerialization.data(
                    withJSONObject: Self.export(extraCard: [
                        "id": Self.trelloID(90), "name": "Piège\u{1B}]0;pwned\u{07}", "idList": Self.trelloID(10),
                    ])), "(ESC)"
            ),
            (
                "bidi",
                try JSONSerialization.data(
                    withJSONObject: Self.export(extraCard: [
                        "id": Self.trelloID(91), "name": "Facture \u{202E}fdp.exe", "idList": Self.trelloID(10),
                    ])), "U+202E"
            ),
            (
                "no list",
                try JSONSerialization.data(
                    withJSONObject: Self.export(extraCard: [
                        "id": Self.trelloID(92), "name": "Orpheline", "idList": "nowhere",
                    ])), "idList"
            ),
            ("not trello", Data("[{\"uuid\":\"x\"}]".utf8), "Trello"),
            ("deep", Data((String(repeating: "[", count: 100_000)).utf8), "64"),
            ("duplicate key", Data("{\"cards\":[],\"lists\":[],\"cards\":[]}".utf8), "cards"),
            ("latin-1", Data([0x7B, 0x22, 0xE9, 0x22, 0x3A, 0x31, 0x7D]), "UTF-8"),
        ]
        cases.append(("empty", Data(), "vide"))
        for (name, bytes, why) in cases {
            let file = pm.home.file(name.replacingOccurrences(of: " ", with: "-") + ".json")
            try bytes.write(to: URL(fileURLWithPath: file))
            let run = try pm.run(["import", "trello", file])
            #expect(run.status == 65, "\(name): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains(why) && run.stderr.contains("Rien n’a été ajouté"), "\(name): \(run.stderr)")
            #expect(run.stderr.contains(file + ":") || name == "empty", "\(name): the place")
            #expect(!run.stderr.contains("\u{1B}") && !run.stderr.contains("\u{202E}"), "\(name): shown escaped")
            #expect(pm.boardBytes() == before, "\(name): nothing written")
        }
    }
}
