import Foundation
import PMTestSupport
import Testing

@testable import PMCore
@testable import PMText

/// The shortcuts a board read takes on the bytes pm itself writes: each
/// must agree with the full check it stands in front of, and give way to it
/// on anything else.
@Suite struct ReadFastPathTests {
    // MARK: UTF-8, 32 bytes at a time

    /// Where the first invalid byte is, as Swift's own validation sees it:
    /// everything before is valid, and the whole is not.
    func expectAgreesWithSwift(_ bytes: [UInt8]) {
        let found = UTF8Validation.firstInvalidOffset(in: bytes)
        let valid = String(validating: bytes, as: UTF8.self) != nil
        #expect((found == nil) == valid, "\(bytes)")
        if let found {
            #expect(String(validating: bytes[..<found], as: UTF8.self) != nil, "\(bytes)")
        }
    }

    @Test func aBadByteIsFoundWhereverItFallsAgainstTheWideSteps() {
        let bad: [[UInt8]] = [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xE2, 0x80], [0x80], [0xF4, 0x90, 0x80, 0x80]]
        for length in 0...80 {
            for at in stride(from: 0, through: length, by: 1) {
                for sequence in bad {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes.insert(contentsOf: sequence, at: at)
                    #expect(UTF8Validation.firstInvalidOffset(in: bytes) == at, "length \(length) at \(at) \(sequence)")
                }
            }
        }
    }

    @Test func randomTextAgreesWithSwiftsValidation() {
        var random = SeededGenerator(seed: 2026)
        let pieces: [[UInt8]] = [
            Array("plain ascii text, ".utf8), Array("회의".utf8), Array("é’…½".utf8), Array("😀".utf8), [0xFF], [0xC3], [0x80],
            [0xEF, 0xBF, 0xBF], [0xF0, 0x9F], [0xE0, 0x9F, 0x80],
        ]
        for _ in 0..<3000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                // Mostly valid text, so that the error lands anywhere.
                let piece =
                    Int.random(in: 0..<100, using: &random) < 90
                    ? Int.random(in: 0..<4, using: &random) : Int.random(in: 0..<pieces.count, using: &random)
                bytes += pieces[piece]
            }
            expectAgreesWithSwift(bytes)
        }
    }

    // MARK: heads and live changes in pm's own form

    let id = "e0000348-0000-4000-8000-000000000348"

    /// Where the fast skip stops, or nil when it gives way.
    func fastSkip(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            return reader.skipIDListsFast() ? reader.index : nil
        }
    }

    func fullSkip(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            return (try? reader.skipValueFast()) != nil ? reader.index : nil
        }
    }

    @Test func theFormPmWritesIsSkippedWhereTheFullSkipStops() {
        let forms = [
            "{}", "[]", "[\"\(id)\"]", "[\"\(id)\", \"\(id)\"]",
            "{\"body\": [\"\(id)\"], \"due\": [\"\(id)\"], \"state\": [\"\(id)\"], \"title\": [\"\(id)\", \"\(id)\"]}",
            "{\"title\": []}",
        ]
        for form in forms {
            let text = form + ",\n      \"live\": []"
            #expect(fastSkip(text) != nil, "\(form)")
            #expect(fastSkip(text) == fullSkip(text), "\(form)")
            #expect(fastSkip(text) == form.utf8.count)
        }
    }

    @Test func anythingElseGivesWayToTheFullCheck() {
        let others = [
            // The same key twice, or keys out of order: only the full check may judge.
            "{\"title\": [\"\(id)\"], \"title\": [\"\(id)\"]}",
            "{\"title\": [\"\(id)\"], \"body\": [\"\(id)\"]}",
            // A head with its own value, an escape, a control character, a short id.
            "{\"title\": [[\"\(id)\", \"other\"]]}",
            "[\"e0000348-0000-4000-8000-00000000034\\u0038\"]",
            "[\"e0000348-0000-4000-8000-00000000034\u{1}\"]",
            "[\"e0000348\"]",
            "[\"\(id)\",\"\(id)\"]",
            "{\"tit\\u006ce\": []}",
            "[\"\(id)\"", "{\"title\": [\"\(id)\"]", "{", "[", "",
            "[\"é0000348-0000-4000-8000-00000000348\"]",
        ]
        for other in others { #expect(fastSkip(other) == nil, "\(other)") }
    }

    @Test func aBoardWhoseHeadsNameAFieldTwiceIsStillRefused() throws {
        var board = Board(id: TaskID("b0a4d000-0000-4000-8000-000000000001")!)
        try board.add(
            title: "T", id: TaskID("00000348-0000-4000-8000-000000000348")!, eventID: TaskID(id)!, by: "a",
            at: "2026-11-21T10:00:00.000Z")
        let text = String(decoding: BoardEncoder.encode(board), as: UTF8.self)
        let heads = "\"heads\": {"
        #expect(text.contains(heads))
        let twice = text.replacingOccurrences(of: heads, with: heads + "\"title\": [\"\(id)\"], ")
        #expect(throws: PMError.self) { try BoardDecoder.decode(Array(twice.utf8), path: "b.json", lazyHeads: true) }
    }
}

extension ReadFastPathTests {
    /// Every byte at every place of an id: accepted exactly where it is a
    /// hex digit (any case) or the dash the form wants there.
    @Test func anIdIsReadOnlyFromHexDigitsAndDashesInPlace() {
        let base = Array("0123abcd-EF45-4678-9abc-def012345678".utf8)
        let dashes: Set<Int> = [8, 13, 18, 23]
        let hex = Set(Array("0123456789abcdefABCDEF".utf8))
        for position in 0..<36 {
            for value in 0...255 {
                var bytes = base
                bytes[position] = UInt8(value)
                let id = bytes.withUnsafeBufferPointer { TaskID(utf8: $0) }
                let valid = dashes.contains(position) ? value == Int(UInt8(ascii: "-")) : hex.contains(UInt8(value))
                #expect((id != nil) == valid, "\(position) \(value)")
                if let id { #expect(id.rawValue == String(decoding: bytes, as: UTF8.self).lowercased()) }
            }
        }
    }
}

extension ReadFastPathTests {
    /// Ids checked by sorting, not hashing: the place reported is still the
    /// first that repeats an earlier one, as a reader going down the file meets it.
    @Test func theFirstRepeatedIdIsTheOneAReaderMeetsFirst() {
        let (a, b, c) = (TaskID(high: 9, low: 0), TaskID(high: 1, low: 2), TaskID(high: 1, low: 1))
        #expect(BoardDecoder.firstRepeated([a, b, c, b, a]) == 3)
        #expect(BoardDecoder.firstRepeated([a, b, c, a, b]) == 3)
        #expect(BoardDecoder.firstRepeated([c, c]) == 1)
        #expect(BoardDecoder.firstRepeated([a, b, c]) == nil)
        #expect(BoardDecoder.firstRepeated([]) == nil)
        var random = SeededGenerator(seed: 7)
        for _ in 0..<500 {
            let ids = (0..<Int.random(in: 0...12, using: &random)).map { _ in
                TaskID(high: UInt64.random(in: 0...3, using: &random), low: UInt64.random(in: 0...2, using: &random))
            }
            var seen = Set<TaskID>()
            let expected = ids.indices.first { !seen.insert(ids[$0]).inserted }
            #expect(BoardDecoder.firstRepeated(ids) == expected, "\(ids)")
        }
    }
}

extension ReadFastPathTests {
    /// The id table answers as a Set does, also once it is overfull and
    /// has moved to one (as crafted, colliding ids would make it).
    @Test func theIdTableAnswersAsASetDoesEvenOverfull() {
        var random = SeededGenerator(seed: 11)
        for count in [0, 1, 40, 300] {
            let ids = (0..<count).map { _ in
                TaskID(high: UInt64.random(in: 0...20, using: &random), low: UInt64.random(in: 0...9, using: &random))
            }
            for slots in [nil, 16] {
                // With 16 slots for up to 210 different ids, the table fills up and moves to a Set.
                var table = IDTable(ids, slots: slots)
                var set = Set<TaskID>()
                for place in ids.indices { #expect(table.insert(place) == set.insert(ids[place]).inserted) }
            }
        }
    }
}

extension ReadFastPathTests {
    /// A state and a deadline are matched on their bytes in the usual form;
    /// any other spelling is read in full, and refused only if wrong.
    @Test func statesAndDeadlinesInAnyOtherSpellingAreStillReadInFull() throws {
        var board = Board(id: TaskID("b0a4d000-0000-4000-8000-000000000001")!)
        try board.add(
            title: "T", due: CivilDate(iso: "2026-12-01"), id: TaskID("00000348-0000-4000-8000-000000000348")!,
            eventID: TaskID(id)!, by: "a", at: "2026-11-21T10:00:00.000Z")
        let text = String(decoding: BoardEncoder.encode(board), as: UTF8.self)
        func read(_ from: String, _ to: String) throws -> BoardTask? {
            #expect(text.contains(from))
            let bytes = Array(text.replacingOccurrences(of: from, with: to).utf8)
            return try BoardDecoder.decode(bytes, path: "b.json", lazyHeads: true).tasks.first
        }
        #expect(try read("\"state\": \"todo\"", "\"state\": \"doing\"")?.state == .doing)
        #expect(try read("\"state\": \"todo\"", "\"state\": \"d\\u006fne\"")?.state == .done)
        #expect(throws: PMError.self) { try read("\"state\": \"todo\"", "\"state\": \"todox\"") }
        #expect(throws: PMError.self) { try read("\"state\": \"todo\"", "\"state\": \"todo") }
        #expect(try read("\"due\": \"2026-12-01\"", "\"due\": \"2026-0\\u0031-01\"")?.due == CivilDate(iso: "2026-01-01"))
        #expect(throws: PMError.self) { try read("\"due\": \"2026-12-01\"", "\"due\": \"2026-02-30\"") }
        #expect(throws: PMError.self) { try read("\"due\": \"2026-12-01\"", "\"due\": \"2026-12-01x\"") }
        #expect(try read("\"due\": \"2026-12-01\"", "\"due\": null")?.due == nil)
    }
}

extension ReadFastPathTests {
    /// A board with every shape of task a board holds in the usual layout.
    func usualBoard() throws -> Board {
        var board = Board(id: TaskID("b0a4d000-0000-4000-8000-000000000001")!)
        let ids = CountingIDs()
        try board.add(
            title: "Réunion \"équipe\" \\ 한국어", body: "line 1\nline 2\ttab", due: CivilDate(iso: "2026-12-01"), id: ids.make(),
            eventID: ids.make(), by: "camille", at: "2026-11-21T10:00:00.000Z")
        try board.add(title: "Second", id: ids.make(), eventID: ids.make(), by: "ji-woo", at: "2026-11-21T10:00:01.000Z")
        try board.move(board.tasks[1].id, to: .doing, eventID: ids.make(), by: "ji-woo", at: "2026-11-21T10:00:02.000Z")
        try board.add(title: "Third", id: ids.make(), eventID: ids.make(), by: "ji-woo", at: "2026-11-21T10:00:03.000Z")
        try board.move(board.tasks[2].id, to: .done, eventID: ids.make(), by: "ji-woo", at: "2026-11-21T10:00:04.000Z")
        try board.assign(
            board.tasks[0].id, adding: ["ji-woo", "Am\u{E9}lie", "지우"], eventID: ids.make(), by: "ji-woo",
            at: "2026-11-21T10:00:05.000Z")
        // A card carrying every part; another with a label and a priority only.
        let changes: [CardChange] = [
            .labels(adding: ["bug", "검토"], removing: []), .priority(.high), .addItem(text: "Draft \"one\"", before: nil),
            .addItem(text: "체크", before: nil, done: true), .addItem(text: "gone", before: nil), .removeItem("3"),
            .addComment(text: "Looks good\nreally"),
        ]
        for (offset, change) in changes.enumerated() {
            try board.change(
                board.tasks[0].id, change, eventID: ids.make(), by: "ji-woo", at: "2026-11-21T10:00:1\(offset).000Z")
        }
        try board.change(
            board.tasks[1].id, .labels(adding: ["ui"], removing: []), eventID: ids.make(), by: "ji-woo",
            at: "2026-11-21T10:00:20.000Z")
        try board.change(board.tasks[1].id, .priority(.low), eventID: ids.make(), by: "ji-woo", at: "2026-11-21T10:00:21.000Z")
        return board
    }

    /// Each task of a board pm wrote is read by comparing bytes, and to the
    /// same task the full reader makes of it.
    @Test func aTaskInTheUsualLayoutIsReadAsTheFullReaderReadsIt() throws {
        let bytes = BoardEncoder.encode(try usualBoard())
        let full = try BoardDecoder.decode(bytes, path: "b.json")
        let lazy = try BoardDecoder.decode(bytes, path: "b.json", lazyHeads: true)
        // Each field read first on its own, while the rest is still unread.
        #expect(
            try BoardDecoder.decode(bytes, path: "b.json", lazyHeads: true).tasks.map(\.updatedAt) == full.tasks.map(\.updatedAt))
        #expect(try BoardDecoder.decode(bytes, path: "b.json", lazyHeads: true).tasks.map(\.body) == full.tasks.map(\.body))
        #expect(lazy.tasks == full.tasks)
        #expect(lazy.tasks.map(\.heads) == full.tasks.map(\.heads))
        #expect(lazy.tasks.map(\.live) == full.tasks.map(\.live))
        #expect(lazy.tasks.map(\.body) == full.tasks.map(\.body))
        #expect(full.tasks.map(\.state) == [.todo, .doing, .done])
        #expect(lazy.tasks.map(\.assignees) == [["Am\u{E9}lie", "ji-woo", "지우"], [], []])
        // The checklist's progress counted where it lies agrees with the decoded one.
        let progress = try BoardDecoder.decode(bytes, path: "b.json", lazyHeads: true).tasks.map { "\($0.progress)" }
        #expect(progress == full.tasks.map { "\($0.progress)" })
        #expect(progress.first == "(done: 1, total: 2)")
        #expect(lazy.tasks.map(\.allItems) == full.tasks.map(\.allItems))
        #expect(lazy.tasks.map(\.allComments) == full.tasks.map(\.allComments))
        #expect(lazy.tasks.map(\.labels) == [["bug", "검토"], ["ui"], []])
        for span in lazy.source.spans {
            let usual = bytes.withUnsafeBufferPointer { buffer -> BoardTask? in
                var reader = JSONReader(buffer, at: span.lowerBound)
                let task = BoardDecoder.readUsualTask(&reader, lazy: bytes)
                #expect(task == nil || reader.index == span.upperBound)
                return task
            }
            #expect(usual != nil)
        }
    }

    /// Names a board holds are the ones pm keeps, each once, in byte order:
    /// anything else is refused whichever way the task is read.
    @Test func assigneesPmWouldNotKeepAreRefused() throws {
        let text = String(decoding: BoardEncoder.encode(try usualBoard()), as: UTF8.self)
        let kept = "[\"Am\u{E9}lie\", \"ji-woo\", \"지우\"]"
        #expect(text.contains(kept))
        for bad in [
            "[\"ji-woo\", \"Am\u{E9}lie\", \"지우\"]", "[\"ji-woo\", \"ji-woo\"]", "[\"Ame\u{301}lie\"]", "[\"a,b\"]",
            "[\"\\u001b[2J\"]", "[1]", "\"ji-woo\"",
        ] {
            let bytes = Array(text.replacingOccurrences(of: kept, with: bad).utf8)
            for lazy in [false, true] {
                #expect(throws: (any Error).self, "\(bad)") { try BoardDecoder.decode(bytes, path: "b.json", lazyHeads: lazy) }
            }
        }
    }

    /// Another layout of the same task (another indentation, a key of a
    /// newer pm, keys in another order) gives way, unmoved, and is read in full.
    @Test func anyOtherLayoutGivesWayAndIsReadInFull() throws {
        let text = String(decoding: BoardEncoder.encode(try usualBoard()), as: UTF8.self)
        let variants = [
            text.replacingOccurrences(of: "\n      \"due\": ", with: "\n       \"due\": "),
            text.replacingOccurrences(of: "\n      \"id\": ", with: "\n      \"zz\": 1,\n      \"id\": "),
            text.replacingOccurrences(of: "\"state\": \"todo\"", with: "\"state\": \"t\\u006fdo\""),
            text.replacingOccurrences(of: "\"due\": \"2026-12-01\"", with: "\"due\": \"2026-12-01\" "),
            text.replacingOccurrences(of: "\"],\n      \"body\": ", with: "\"],\n       \"body\": "),
        ]
        for variant in variants {
            #expect(variant != text)
            let bytes = Array(variant.utf8)
            let lazy = try BoardDecoder.decode(bytes, path: "b.json", lazyHeads: true)
            let full = try BoardDecoder.decode(bytes, path: "b.json")
            #expect(lazy.tasks == full.tasks)
            let first = try #require(lazy.source.spans.first)
            bytes.withUnsafeBufferPointer { buffer in
                var reader = JSONReader(buffer, at: first.lowerBound)
                #expect(BoardDecoder.readUsualTask(&reader, lazy: bytes) == nil)
                #expect(reader.index == first.lowerBound)
            }
        }
    }
}

extension ReadFastPathTests {
    /// Keys made of a text's first bytes order as the texts do wherever
    /// they differ, and are equal only where the texts must decide.
    @Test func textOrderKeysOrderAsTheirTexts() {
        var random = SeededGenerator(seed: 3)
        let pieces = ["2026-01-01T00:00:00.000Z", "2025", "é", "회", "\u{0}", "a", "", "2026-01-01T00:00:00.000Z9"]
        for _ in 0..<2000 {
            let a = (0..<Int.random(in: 0...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let b = (0..<Int.random(in: 0...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            guard let x = TextOrderKey(a), let y = TextOrderKey(b) else {
                // Only ASCII has a key: elsewhere String's order is not the bytes'.
                #expect(!a.utf8.allSatisfy { $0 < 0x80 } || !b.utf8.allSatisfy { $0 < 0x80 })
                continue
            }
            if x != y { #expect((x < y) == (a < b), "\(a) \(b)") }
            if a == b { #expect(x == y) }
        }
    }
}

extension ReadFastPathTests {
    /// A time of the last change left unread is still checked as it is
    /// skipped: a control character or a broken escape refuses the board.
    @Test func anUnreadTimeOfTheLastChangeIsStillChecked() throws {
        let text = String(decoding: BoardEncoder.encode(try usualBoard()), as: UTF8.self)
        // An escape is well formed JSON: left unread, it decodes as the full reader reads it.
        let escaped = Array(text.replacingOccurrences(of: "\"updatedAt\": \"2026", with: "\"updatedAt\": \"\\u0032026").utf8)
        let lazy = try BoardDecoder.decode(escaped, path: "b.json", lazyHeads: true)
        #expect(lazy.tasks.map(\.updatedAt) == (try BoardDecoder.decode(escaped, path: "b.json")).tasks.map(\.updatedAt))
        #expect(lazy.tasks.first?.updatedAt.hasPrefix("2026") == true)
        for broken in ["\"updatedAt\": \"20\u{1}26", "\"updatedAt\": \"\\uZZ2026"] {
            let bytes = Array(text.replacingOccurrences(of: "\"updatedAt\": \"2026", with: broken).utf8)
            #expect(throws: PMError.self) { try BoardDecoder.decode(bytes, path: "b.json", lazyHeads: true) }
        }
    }
}
