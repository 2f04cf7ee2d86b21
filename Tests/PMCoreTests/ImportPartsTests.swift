import Foundation
import PMCore
import Testing

/// What the importers read into a card's labels, priority, checklist and
/// comments (``ImportedParts``): pm's limits, derived ids, refusals.
@Suite struct ImportPartsTests {
    static func trelloID(_ n: Int) -> String { String(format: "6543%04x%016x", n, n * 7919) }

    /// A Trello board of one card with these checklist items and comments.
    static func trello(items: [[String: Any]], comments: [[String: Any]]) throws -> [UInt8] {
        let card = trelloID(20)
        let board: [String: Any] = [
            "id": trelloID(1), "labels": [["id": trelloID(40), "name": "", "color": ""]],
            "lists": [["id": trelloID(10), "name": "To Do", "pos": 1]],
            "cards": [["id": card, "name": "Card", "idList": trelloID(10), "idLabels": [trelloID(40)]]],
            "members": [["id": trelloID(50), "username": "ana"]],
            "checklists": [["id": trelloID(60), "idCard": card, "name": "Only", "pos": 1, "checkItems": items]],
            "actions": comments.enumerated().map { index, comment in
                var action: [String: Any] = [
                    "id": trelloID(1000 + index), "type": "commentCard", "idMemberCreator": trelloID(50),
                    "data": ["text": comment["text"] ?? "", "card": ["id": card]],
                ]
                if let date = comment["date"] { action["date"] = date }
                return action
            },
        ]
        return Array(try JSONSerialization.data(withJSONObject: board))
    }

    static func date(_ minute: Int) -> String {
        String(format: "2026-11-%02dT%02d:%02d:00.000Z", 1 + minute / 1440, minute / 60 % 24, minute % 60)
    }

    @Test func itemsAndCommentsPastPmsLimitsAreCutAndTheCardCountedAsShortened() throws {
        var items: [[String: Any]] = (0..<205).map { n in
            ["id": Self.trelloID(100 + n), "name": "Item \(n)", "state": n % 2 == 0 ? "complete" : "incomplete", "pos": n]
        }
        items[0]["name"] = String(repeating: "é", count: 250)
        items[1]["name"] = " \n "
        let comments: [[String: Any]] = (0..<203).map { n in
            ["text": n == 202 ? String(repeating: "x", count: 1100) : "Comment \(n)", "date": Self.date(n)]
        }
        let reading = try TrelloImport.read(try Self.trello(items: items, comments: comments), options: ImportOptions())
        let parts = try #require(reading.cards.first?.parts)
        #expect(reading.shortened == 1)
        #expect(parts.checklist.count == ChecklistItem.cardLimit, "the first 200 items pm can keep")
        let first = try #require(parts.checklist.first?.text)
        #expect(first.count == ChecklistItem.textLimit && first.hasSuffix("…") && parts.checklist[0].done)
        #expect(parts.checklist[1].text == "Item 2", "an item with nothing visible is left out, not kept empty")
        #expect(parts.checklist.last?.text == "Item 200")
        #expect(parts.comments.count == Comment.cardLimit, "the newest 200")
        #expect(parts.comments.first?.text == "Comment 3" && parts.comments.allSatisfy { $0.by == "ana" })
        let last = try #require(parts.comments.last?.text)
        #expect(last.count == Comment.textLimit && last.hasSuffix("…"))
        #expect(parts.labels.isEmpty && parts.refused.isEmpty, "a label with neither a name nor a colour has no name to keep")
    }

    @Test func idsAreDerivedFromTheSourceAndTheSameOnEveryRead() throws {
        let items: [[String: Any]] = [["id": Self.trelloID(100), "name": "One", "state": "complete", "pos": 1]]
        let comments: [[String: Any]] = [["text": "Hi", "date": Self.date(0)]]
        let bytes = try Self.trello(items: items, comments: comments)
        let first = try #require(try TrelloImport.read(bytes, options: ImportOptions()).cards.first?.parts)
        let again = try #require(try TrelloImport.read(bytes, options: ImportOptions()).cards.first?.parts)
        #expect(first == again)
        #expect(first.checklist.map(\.id) == [ItemID.derived(from: Self.trelloID(100))])
        #expect(first.comments.map(\.id) == [ItemID.derived(from: Self.trelloID(1000))])
        #expect(first.comments.first?.at == "2026-11-01T00:00:00.000Z")
    }

    @Test func aCommentWithoutADateTakesItsIdsTimeAndABadDateRefusesTheFile() throws {
        let undated = try TrelloImport.read(
            try Self.trello(items: [], comments: [["text": "When?"]]), options: ImportOptions())
        #expect(undated.cards.first?.parts.comments.first?.at == "2023-11-02T02:05:28.000Z", "the time in Trello's id")
        let bytes = try Self.trello(items: [], comments: [["text": "Hi", "date": "yesterday"]])
        #expect(throws: ImportFailure.self) { try TrelloImport.read(bytes, options: ImportOptions()) }
        do {
            _ = try TrelloImport.read(bytes, options: ImportOptions())
        } catch let failure as ImportFailure {
            #expect(failure.problem == .badDate("yesterday"))
            #expect(Array(bytes)[failure.offset...].starts(with: Array("\"yesterday\"".utf8)), "at the date")
        }
    }

    @Test func aCSVPriorityIsAKeyOrNoneAndAnythingElseRefusesTheFile() throws {
        let csv = Array("title,priority,labels\nA,none,\nB,HIGH,\"b, a, b\"\nC,,\n".utf8)
        let cards = try CSVImport.read(csv, options: ImportOptions()).cards
        #expect(cards.map(\.priority) == [nil, .high, nil])
        #expect(cards[1].parts.labels == ["b", "a"], "each once, in the order given (the task sorts them)")
        #expect(throws: ImportFailure(offset: 17, problem: .badPriority("later"))) {
            try CSVImport.read(Array("title,priority\nA,later\n".utf8), options: ImportOptions())
        }
    }

    @Test func taskwarriorAnnotationsAreCommentsOnceEachByTheOwnerOrTheImporter() throws {
        var options = ImportOptions()
        options.user = "ji-woo"
        let note = #"{"entry":"20261102T100000Z","description":"Same"}"#
        let text = """
            [{"uuid":"0f0e0d0c-0b0a-4908-8706-050403020100","description":"A","priority":"H","annotations":[\(note),\(note)]},
            {"uuid":"0f0e0d0c-0b0a-4908-8706-050403020101","description":"B","owner":"lee","entry":"20261101T090000Z",\
            "annotations":[{"description":"No time of its own"}]}]
            """
        let cards = try TaskwarriorImport.read(Array(text.utf8), options: options).cards
        #expect(cards[0].priority == .high && cards[0].parts.comments.count == 1, "the same annotation twice is one comment")
        #expect(cards[0].parts.comments.first?.by == "ji-woo" && cards[0].body.isEmpty)
        let owned = try #require(cards[1].parts.comments.first)
        #expect(owned.by == "lee" && owned.at == "2026-11-01T09:00:00.000Z", "the task's own time: \(owned)")
    }
}
