import PMCore
import PMTestSupport
import Testing

@Suite struct TaskLookupTests {
    func board(_ ids: [String]) throws -> Board {
        var board = Board(id: try #require(TaskID("ffffffff-0000-4000-8000-000000000000")))
        for (n, id) in ids.enumerated() {
            try board.add(
                title: "task \(n)", id: try #require(TaskID(id)), eventID: try #require(TaskID(id)), by: "x",
                at: "2026-01-01T00:00:00.000Z")
        }
        return board
    }

    let a = "3f2a9c1e-0000-4000-8000-000000000001"
    let b = "3f2b0000-0000-4000-8000-000000000002"
    let c = "77770000-0000-4000-8000-000000000003"

    @Test func aUniquePrefixOfFourOrMoreDigitsFindsTheTask() throws {
        let board = try board([a, b, c])
        #expect(try TaskLookup.find("3f2a", in: board).id.rawValue == a)
        #expect(try TaskLookup.find("3F2A9C", in: board).id.rawValue == a)
        #expect(try TaskLookup.find(a, in: board).id.rawValue == a)
        #expect(try TaskLookup.find(a.uppercased(), in: board).id.rawValue == a)
        #expect(try TaskLookup.find("7777", in: board).id.rawValue == c)
    }

    @Test func anAmbiguousPrefixListsTheCandidates() throws {
        let board = try board([a, b, c])
        // Three digits are never enough, even when they would be unique.
        #expect(throws: PMError.invalidID("3f2")) { try TaskLookup.find("3f2", in: board) }
        let board2 = try self.board([a, "3f2a0000-0000-4000-8000-00000000000a"])
        do {
            _ = try TaskLookup.find("3f2a", in: board2)
            Issue.record("expected an ambiguity")
        } catch PMError.ambiguousID(let text, let candidates, let titles) {
            #expect(text == "3f2a")
            #expect(candidates.map(\.rawValue).sorted() == [a, "3f2a0000-0000-4000-8000-00000000000a"].sorted())
            #expect(titles.count == 2)
        }
    }

    @Test(arguments: ["", "abc", "xyzw", "3f2a-9c1e-zz", "g000"])
    func malformedIDsAreRefused(_ text: String) throws {
        let board = try board([a])
        #expect(throws: PMError.invalidID(text)) { try TaskLookup.find(text, in: board) }
    }

    @Test func anUnknownPrefixIsNotFound() throws {
        #expect(throws: PMError.taskNotFound("abcd")) { try TaskLookup.find("abcd", in: try board([a, b])) }
    }

    @Test func shortIDsAreTheShortestUniquePrefixOfAtLeastFour() throws {
        let board = try board([a, b, c])
        let short = TaskLookup.shortIDs(for: board.tasks)
        #expect(short[try #require(TaskID(a))] == "3f2a")
        #expect(short[try #require(TaskID(c))] == "7777")
        let board2 = try self.board([a, "3f2a9c00-0000-4000-8000-000000000009"])
        let short2 = TaskLookup.shortIDs(for: board2.tasks)
        #expect(short2[try #require(TaskID(a))] == "3f2a9c1")
        #expect(TaskLookup.shortID(of: try #require(TaskID(a)), among: board2.tasks) == "3f2a9c1")
        for task in board2.tasks {
            #expect(try TaskLookup.find(try #require(short2[task.id]), in: board2).id == task.id)
        }
        #expect(short2[try #require(TaskID(c))] == nil)
    }

    /// Looked up by bisection, each short id is the one computed for that
    /// task alone, among ids that share long prefixes.
    @Test func everyShortIdIsTheOneComputedForItsTaskAlone() throws {
        var random = SeededGenerator(seed: 5)
        for count in [0, 1, 2, 7, 60] {
            let texts = (0..<count).map { _ in
                let digits = (0..<32).map { place in
                    // Few choices early on: long shared prefixes.
                    String(Int.random(in: 0..<(place < 6 ? 2 : 16), using: &random), radix: 16)
                }.joined()
                let d = Array(digits)
                return
                    "\(String(d[0..<8]))-\(String(d[8..<12]))-\(String(d[12..<16]))-\(String(d[16..<20]))-\(String(d[20..<32]))"
            }
            let board = try self.board(Array(Set(texts)))
            let short = TaskLookup.shortIDs(for: board.tasks)
            for task in board.tasks {
                #expect(short[task.id] == TaskLookup.shortID(of: task.id, among: board.tasks))
            }
        }
    }
}

@Suite struct TaskIDTests {
    func random() -> TaskID {
        let hex = Array("0123456789abcdef")
        // Few distinct digits, so that long shared prefixes and equal ids occur.
        let digits = (0..<32).map { _ in hex[Int.random(in: 0..<3)] }
        var text = ""
        for (index, digit) in digits.enumerated() {
            if [8, 12, 16, 20].contains(index) { text += "-" }
            text.append(digit)
        }
        return TaskID(text)!
    }

    @Test func bitsAgreeWithTheTextOnOrderEqualityAndPrefixes() {
        for _ in 0..<2_000 {
            let a = random()
            let b = random()
            #expect((a < b) == (a.rawValue < b.rawValue))
            #expect((a == b) == (a.rawValue == b.rawValue))
            #expect(TaskID(a.rawValue) == a)
            #expect(TaskID(a.rawValue.uppercased()) == a)
            let common = zip(a.hexDigitBytes, b.hexDigitBytes).prefix { $0 == $1 }.count
            #expect(a.commonHexDigits(with: b) == common)
            #expect(a.hasHexPrefix(Array(b.hexDigitBytes.prefix(common))))
            #expect(a == b || !a.hasHexPrefix(Array(b.hexDigitBytes.prefix(common + 1))))
            if a == b { #expect(a.hashValue == b.hashValue) }
            // The masked form agrees with the digits, at every length.
            let length = Int.random(in: 0...32)
            let digits = Array(b.hexDigitBytes.prefix(length))
            #expect(TaskID.HexPrefix(digits)?.matches(a) == a.hasHexPrefix(digits), "\(a) \(length)")
            #expect(TaskID.HexPrefix(digits)?.matches(b) == true)
            #expect(b.hexPrefix(length) == String(decoding: digits, as: UTF8.self))
        }
        #expect(TaskID.HexPrefix(Array("00g0".utf8)) == nil && TaskID.HexPrefix(Array("00A0".utf8)) == nil)
        #expect(TaskID.HexPrefix(Array(repeating: UInt8(ascii: "0"), count: 33)) == nil)
    }

    @Test func onlyUUIDsAreIDs() {
        #expect(TaskID("00c0ffee-0000-4000-8000-00000000b0a4")?.rawValue == "00c0ffee-0000-4000-8000-00000000b0a4")
        #expect(TaskID("00C0FFEE-0000-4000-8000-00000000B0A4")?.rawValue == "00c0ffee-0000-4000-8000-00000000b0a4")
        for bad in [
            "", "00c0ffee", "00c0ffee-0000-4000-8000-00000000b0a", "00c0ffee-0000-4000-8000-00000000b0a45",
            "00c0ffee00000-4000-8000-00000000b0a4", "00c0ffeg-0000-4000-8000-00000000b0a4",
            "00c0ffee-0000-4000-8000-00000000b0a\u{E9}",
        ] {
            #expect(TaskID(bad) == nil, "\(bad)")
        }
    }
}
