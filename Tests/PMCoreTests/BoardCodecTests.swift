import Foundation
import PMCore
import PMTestSupport
import Testing

@Suite struct BoardCodecTests {
    let ids = CountingIDs()

    /// A schema-1 board, as pm 0.1 wrote it (pm still reads and converts them).
    func sample() throws -> Board {
        var board = Board(id: ids.make())
        board.schemaVersion = 1
        try board.add(
            title: "Réunion \"équipe\" \\ 한국어", body: "line 1\nline 2\ttab", due: CivilDate(iso: "2026-12-01"), id: ids.make(),
            eventID: ids.make(), by: "camille", at: "2026-11-21T10:00:00.000Z")
        try board.add(title: "Second", id: ids.make(), eventID: ids.make(), by: "ji-woo", at: "2026-11-21T10:00:01.000Z")
        try board.move(board.tasks[1].id, to: .doing, eventID: ids.make(), by: "ji-woo", at: "2026-11-21T10:00:02.000Z")
        return board
    }

    func decode(_ text: String) throws -> Board { try BoardDecoder.decode(Array(text.utf8), path: "b.json") }

    @Test func aBoardRoundTripsByteForByte() throws {
        let board = try sample()
        let bytes = BoardEncoder.encode(board)
        let decoded = try BoardDecoder.decode(bytes, path: "b.json")
        #expect(decoded.tasks == board.tasks)
        #expect(decoded.id == board.id)
        #expect(try decoded.history.events() == board.history.appended)
        #expect(BoardEncoder.encode(decoded) == bytes)
    }

    /// The bytes as encoded from scratch, ignoring where the tasks were read from.
    func fresh(_ board: Board) -> [UInt8] {
        var board = board
        board.source = TaskSource()
        return BoardEncoder.encode(board)
    }

    /// Saving copies unchanged tasks from the file read instead of encoding
    /// them again; the bytes are exactly those of a full encoding, after an
    /// edit, a move, an addition and a deletion.
    @Test func copiedTasksGiveTheSameBytesAsAFullEncoding() throws {
        var board = try sample()
        board.schemaVersion = 2
        board.history = HistoryLog()
        for n in 0..<20 {
            try board.add(
                title: "Tâche \(n) 보고서", body: "corps\n\(n)", due: n % 3 == 0 ? CivilDate(iso: "2026-12-0\(n % 9 + 1)") : nil,
                id: ids.make(), eventID: ids.make(), by: "camille", at: "2026-11-21T10:01:00.000Z")
        }
        var read = try BoardDecoder.decode(BoardEncoder.encode(board), path: "b.json")
        try read.edit(
            read.tasks[5].id, Board.Edit(title: "Renommée"), eventID: ids.make(), by: "ji-woo", at: "2026-11-21T10:02:00.000Z")
        try read.move(read.tasks[9].id, to: .done, eventID: ids.make(), by: "ji-woo", at: "2026-11-21T10:02:01.000Z")
        _ = try read.delete(read.tasks[2].id, eventID: ids.make(), by: "ji-woo", at: "2026-11-21T10:02:02.000Z")
        try read.add(title: "Nouvelle", id: ids.make(), eventID: ids.make(), by: "ji-woo", at: "2026-11-21T10:02:03.000Z")
        #expect(BoardEncoder.encode(read) == fresh(read))
        #expect(try BoardDecoder.decode(BoardEncoder.encode(read), path: "b.json").tasks == read.tasks)
    }

    /// A file edited by hand: a task in another spacing is kept as it was
    /// written (the same values; a diff shows only what changed), the
    /// whole file is encoded afresh when even its first task is not in pm's
    /// form, and a raw bidi control pasted into a title never passes raw.
    @Test func aFileEditedByHandIsReadBackTheSameAndNeverPassesControlsRaw() throws {
        var board = try sample()
        board.schemaVersion = 2
        board.history = HistoryLog()
        let text = String(decoding: BoardEncoder.encode(board), as: UTF8.self)
        let spaced = text.replacingOccurrences(of: "\"title\": \"Second\"", with: "\"title\":   \"Second\"")
        #expect(spaced != text)
        var read = try decode(spaced)
        try read.add(title: "x", id: ids.make(), eventID: ids.make(), by: "camille", at: "2026-11-21T10:03:00.000Z")
        let written = String(decoding: BoardEncoder.encode(read), as: UTF8.self)
        #expect(written.contains("\"title\":   \"Second\""), "the edited task kept as written")
        #expect(written.contains("      \"title\": \"x\",\n"), "the new one in pm's form")
        #expect(try decode(written).tasks == read.tasks)
        let firstSpaced = text.replacingOccurrences(of: "\"body\": \"line 1", with: "\"body\":  \"line 1")
        var whole = try decode(firstSpaced)
        try whole.add(title: "z", id: ids.make(), eventID: ids.make(), by: "camille", at: "2026-11-21T10:03:02.000Z")
        #expect(BoardEncoder.encode(whole) == fresh(whole))
        // pm's form for the first task, a raw U+202E in the second.
        let bidi = text.replacingOccurrences(of: "\"title\": \"Second\"", with: "\"title\": \"Sec\u{202E}ond\"")
        var hostile = try decode(bidi)
        try hostile.add(title: "y", id: ids.make(), eventID: ids.make(), by: "camille", at: "2026-11-21T10:03:01.000Z")
        let escaped = String(decoding: BoardEncoder.encode(hostile), as: UTF8.self)
        #expect(!escaped.unicodeScalars.contains("\u{202E}") && escaped.contains("Sec\\u202eond"))
        #expect(BoardEncoder.encode(hostile) == fresh(hostile))
    }

    /// Schema 2: tasks and where in the log the board stands; no history, no revision.
    @Test func aSchemaTwoBoardRoundTripsWithItsLogPosition() throws {
        var board = try sample()
        board.schemaVersion = 2
        board.history = HistoryLog()
        board.log = LogPosition(
            events: 3, length: 912, last: ids.make(), clock: HybridClock(milliseconds: 1_763_719_200_000, counter: 2))
        let bytes = BoardEncoder.encode(board)
        let text = String(decoding: bytes, as: UTF8.self)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(Array(object.keys).sorted() == ["id", "log", "schemaVersion", "tasks"], "\(text)")
        let decoded = try BoardDecoder.decode(bytes, path: "b.json")
        #expect(decoded.log == board.log && decoded.tasks == board.tasks && decoded.schemaVersion == 2)
        #expect(BoardEncoder.encode(decoded) == bytes)
        for bad in ["\"events\": -1", "\"length\": 1e400", "\"clock\": [1]", "\"events\": 1, \"events\": 2"] {
            let broken = text.replacingOccurrences(of: "\"events\": 3", with: bad)
            #expect(throws: PMError.self, "\(bad)") { try decode(broken) }
        }
    }

    @Test func theFileIsPrettySortedAndLanguageNeutral() throws {
        let text = String(decoding: BoardEncoder.encode(try sample()), as: UTF8.self)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["schemaVersion"] as? Int == 1)
        #expect(Array(object.keys).sorted() == ["history", "id", "revision", "schemaVersion", "tasks"])
        let topKeys = text.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { String($0.split(separator: "\"")[1]) }
        #expect(topKeys == topKeys.sorted())
        #expect(text.contains("\n    {\n      \"body\": \"line 1\\nline 2\\ttab\",\n      \"createdAt\""))
        #expect(text.contains("\"state\": \"doing\""))
        #expect(text.contains("\"due\": \"2026-12-01\""))
        #expect(!text.contains("DOING") && !text.contains("EN COURS"))
    }

    @Test func addingATaskIsASmallDiff() throws {
        var board = try sample()
        let before = String(decoding: BoardEncoder.encode(board), as: UTF8.self).split(separator: "\n")
        try board.add(title: "Third", id: ids.make(), eventID: ids.make(), by: "x", at: "2026-11-21T11:00:00.000Z")
        let after = String(decoding: BoardEncoder.encode(board), as: UTF8.self).split(separator: "\n")
        let removed = before.filter { !after.contains($0) }
        // Only the revision line and the closing lines around the appended task may change.
        #expect(removed.count <= 3)
        #expect(after.count - before.count < 25)
    }

    @Test func unknownFieldsFromANewerWriterAreKept() throws {
        let bytes = BoardEncoder.encode(try sample())
        var text = String(decoding: bytes, as: UTF8.self)
        text = text.replacingOccurrences(
            of: "\"schemaVersion\": 1,", with: "\"schemaVersion\": 1,\n  \"sync\": {\"peers\": [1.50, true, null, \"x\"]},")
        text = text.replacingOccurrences(of: "\"title\": \"Second\",", with: "\"title\": \"Second\",\n      \"color\": \"blue\",")
        var board = try decode(text)
        try board.add(title: "New", id: ids.make(), eventID: ids.make(), by: "x", at: "2026-11-22T00:00:00.000Z")
        let saved = String(decoding: BoardEncoder.encode(board), as: UTF8.self)
        #expect(saved.contains("\"color\": \"blue\""))
        #expect(saved.contains("1.50"))
        let reread = try decode(saved)
        #expect(reread.unknownFields["sync"] == .object(["peers": .array([.number("1.50"), .bool(true), .null, .string("x")])]))
        #expect(reread.tasks[1].unknownFields["color"] == .string("blue"))
    }

    @Test func historyIsKeptAsReadAndNewEventsAppended() throws {
        var board = try decode(String(decoding: BoardEncoder.encode(try sample()), as: UTF8.self))
        #expect(board.history.appended.isEmpty)
        try board.delete(board.tasks[0].id, eventID: ids.make(), by: "x", at: "2026-11-22T00:00:00.000Z")
        let events = try decode(String(decoding: BoardEncoder.encode(board), as: UTF8.self)).history.events()
        #expect(events.map(\.action) == [.added, .added, .moved, .removed])
        var empty = Board(id: ids.make())
        empty.schemaVersion = 1
        try empty.add(title: "x", id: ids.make(), eventID: ids.make(), by: "x", at: "2026-11-22T00:00:00.000Z")
        #expect(try decode(String(decoding: BoardEncoder.encode(empty), as: UTF8.self)).history.events().count == 1)
    }

    func reason(_ text: String) -> (CorruptionReason, Int?)? {
        do {
            _ = try decode(text)
            return nil
        } catch PMError.boardCorrupt(_, let line, _, let reason) {
            return (reason, line)
        } catch {
            return nil
        }
    }

    @Test func damagedFilesAreRefusedWithWhereAndWhy() throws {
        let good = String(decoding: BoardEncoder.encode(try sample()), as: UTF8.self)
        #expect(reason("")?.0 == .empty)
        #expect(reason(String(good.prefix(good.count / 2)))?.0 == .truncated)
        #expect(reason("   \n")?.0 == .truncated)
        #expect(reason("{\"tasks\": [}")?.0 == .syntax)
        #expect(reason(good + "x")?.0 == .syntax)
        let conflicted = "<<<<<<< HEAD\n" + good + "=======\n" + good + ">>>>>>> theirs\n"
        #expect(reason(conflicted)?.0 == .conflictMarkers)
        #expect(reason(conflicted)?.1 == 1)
        #expect(reason(good.replacingOccurrences(of: "\"state\": \"doing\"", with: "\"state\": \"DOING\""))?.0 == .field("state"))
        #expect(
            reason(good.replacingOccurrences(of: "\"due\": \"2026-12-01\"", with: "\"due\": \"2026-02-30\""))?.0 == .field("due"))
        #expect(reason("{\"schemaVersion\": 1, \"tasks\": []}")?.0 == .field("id"))
        #expect(reason("[]")?.0 == .syntax)
        #expect(reason("{\"id\": \"bad\\ud800\", \"schemaVersion\": 1, \"tasks\": []}")?.0 == .syntax)
    }

    @Test func invalidUTF8IsRefusedWithItsByteOffset() {
        var bytes = Array("{\"id\": \"x".utf8)
        bytes.append(0xFF)
        bytes += Array("\"}".utf8)
        #expect(throws: PMError.boardCorrupt(path: "b.json", line: 1, column: 10, reason: .invalidUTF8(byteOffset: 9))) {
            try BoardDecoder.decode(bytes, path: "b.json")
        }
    }

    @Test func duplicateTaskIDsAreDetected() throws {
        let good = String(decoding: BoardEncoder.encode(try sample()), as: UTF8.self)
        let second = try #require(try decode(good).tasks.last?.id.rawValue)
        let first = try #require(try decode(good).tasks.first?.id.rawValue)
        let merged = good.replacingOccurrences(of: "\"id\": \"\(second)\"", with: "\"id\": \"\(first)\"")
        #expect(reason(merged)?.0 == .duplicateID(try #require(TaskID(first))))
    }

    @Test func aTaskKeyNamedTwiceIsRefusedWhateverItsSpelling() throws {
        let good = String(decoding: BoardEncoder.encode(try sample()), as: UTF8.self)
        // The same key twice, plainly and once through an escape.
        let twice = good.replacingOccurrences(of: "\"title\": ", with: "\"title\": \"x\", \"title\": ")
        let escaped = good.replacingOccurrences(of: "\"title\": ", with: "\"ti\\u0074le\": \"x\", \"title\": ")
        #expect(reason(twice)?.0 == .duplicateKey("title"))
        #expect(reason(escaped)?.0 == .duplicateKey("title"))
        // An escaped known key is that key; an unknown key named twice is refused too.
        let spelled = good.replacingOccurrences(of: "\"title\": ", with: "\"ti\\u0074le\": ")
        #expect(try decode(spelled).tasks.map(\.title) == (try sample()).tasks.map(\.title))
        let unknown = good.replacingOccurrences(of: "\"title\": ", with: "\"zz\": 1, \"zz\": 2, \"title\": ")
        #expect(reason(unknown)?.0 == .duplicateKey("zz"))
    }

    @Test func idsInAnyCaseAreReadInTheirCanonicalForm() throws {
        let good = String(decoding: BoardEncoder.encode(try sample()), as: UTF8.self)
        let id = try #require(try decode(good).tasks.first?.id)
        let shouted = good.replacingOccurrences(of: id.rawValue, with: id.rawValue.uppercased())
        #expect(try decode(shouted).tasks.first?.id == id)
        #expect(String(decoding: BoardEncoder.encode(try decode(shouted)), as: UTF8.self).contains(id.rawValue))
    }

    @Test func deeplyNestedUnknownValuesDoNotCrash() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(reason("{\"x\": \(deep)") != nil)
    }
}

@Suite struct HistorySkippingTests {
    func board(history: String) -> String {
        "{\"history\": \(history), \"id\": \"00c0ffee-0000-4000-8000-00000000b0a4\", \"schemaVersion\": 1, \"tasks\": []}"
    }

    @Test(
        arguments: [
            "[]", "[ ]", "[{}]", "[[]]", "[{\"a\": [1, 2.5e3, -0, true, false, null, \"x\\\"y\"]}]",
            "[{\"a\": {\"b\": {}}}, {\"c\": \"한국어\"}]", "[\n        {\n          \"k\": \"v\"\n        }\n      ]",
        ].map { NamedText($0.replacingOccurrences(of: "\n", with: "⏎"), $0) })
    func validHistoriesAreSkipped(_ history: NamedText) throws {
        let board = try BoardDecoder.decode(Array(board(history: history.text).utf8), path: "b")
        #expect(board.tasks.isEmpty)
    }

    @Test(
        arguments: [
            "[1,]", "[,1]", "[{\"a\": 1,}]", "[{\"a\" 1}]", "[{a: 1}]", "[{\"a\": 1]", "[{\"a\": 1}", "[01]", "[\"\\q\"]",
            "[\"tab\there\"]", "[tru]", "[1 2]", "{}",
        ].map { NamedText($0.replacingOccurrences(of: "\t", with: "⇥"), $0) })
    func brokenHistoriesAreRefused(_ history: NamedText) {
        #expect(throws: PMError.self) { try BoardDecoder.decode(Array(board(history: history.text).utf8), path: "b") }
    }

    /// The skipper keeps the open objects' keys in fixed scratch space and
    /// spills past it: a key named twice is found on either side of the
    /// spill, and keys of a closed inner object never count against the outer.
    @Test func keysBeyondTheSkippersScratchSpaceAreStillChecked() throws {
        func object(_ names: [String]) -> String { "{" + names.map { "\"\($0)\": 1" }.joined(separator: ", ") + "}" }
        let many = (0..<600).map { "k\($0)" }
        #expect(try BoardDecoder.decode(Array(board(history: "[\(object(many))]").utf8), path: "b").tasks.isEmpty)
        for (first, second) in [(3, 3), (3, 500), (300, 500), (599, 599)] {
            var names = many
            names.insert("k\(first)", at: second + 1)
            let text = board(history: "[\(object(names))]")
            #expect(throws: PMError.self, "k\(first) again after \(second)") {
                try BoardDecoder.decode(Array(text.utf8), path: "b")
            }
        }
        // An inner object past the spill, then the outer object goes on with the inner's names.
        let inner = "{\"a\": {\"in\": \(object(many))}, " + many.map { "\"\($0)\": 2" }.joined(separator: ", ") + "}"
        #expect(try BoardDecoder.decode(Array(board(history: "[\(inner), \(inner)]").utf8), path: "b").tasks.isEmpty)
        let twice = "{\"a\": \(object(many)), " + many.map { "\"\($0)\": 2" }.joined(separator: ", ") + ", \"k450\": 3}"
        #expect(throws: PMError.self) { try BoardDecoder.decode(Array(board(history: "[\(twice)]").utf8), path: "b") }
        // Nesting up to the limit is skipped; one deeper is refused, without a crash.
        let deepest = String(repeating: "[", count: 511) + String(repeating: "]", count: 511)
        #expect(try BoardDecoder.decode(Array(board(history: "[\(deepest)]").utf8), path: "b").tasks.isEmpty)
        let tooDeep = String(repeating: "{\"a\": ", count: 512) + "1" + String(repeating: "}", count: 512)
        #expect(throws: PMError.self) { try BoardDecoder.decode(Array(board(history: "[\(tooDeep)]").utf8), path: "b") }
    }
}
