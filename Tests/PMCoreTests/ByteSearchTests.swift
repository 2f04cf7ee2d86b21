import PMTestSupport
import Testing

@testable import PMCore

/// The byte-level searches that replaced `String` searches on the paths
/// every command takes, checked against what the `String` forms gave.
@Suite struct ByteSearchTests {
    @Test func firstOffsetAgreesWithAScan() {
        var random = SeededGenerator(seed: 11)
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0...24, using: &random)).map { _ in UInt8.random(in: 97...99, using: &random) }
            let needle = (0..<Int.random(in: 1...4, using: &random)).map { _ in UInt8.random(in: 97...99, using: &random) }
            let start = Int.random(in: 0...(bytes.count + 1), using: &random)
            let expected =
                start > bytes.count
                ? nil
                : (start...max(start, bytes.count)).first {
                    $0 + needle.count <= bytes.count && Array(bytes[$0..<($0 + needle.count)]) == needle
                }
            #expect(bytes.firstOffset(of: needle, from: start) == expected, "\(bytes) \(needle) \(start)")
        }
        #expect([UInt8]("abc".utf8).firstOffset(of: []) == nil)
    }

    @Test func trimsOnlySpacesTabsAndNewlinesAtTheEnds() {
        #expect("  \t12 déc.\n ".trimmingASCIIWhitespace() == "12 déc.")
        #expect(" 내일 ".trimmingASCIIWhitespace() == "내일")
        #expect(" \n\t ".trimmingASCIIWhitespace() == "")
        #expect("".trimmingASCIIWhitespace() == "")
        #expect("a  b".trimmingASCIIWhitespace() == "a  b")
        // A text that ends in a combining accent or an emoji of several
        // scalars ends with the whole character.
        #expect(" cafe\u{301}\t".trimmingASCIIWhitespace() == "cafe\u{301}")
        #expect("\n👩‍💻 ".trimmingASCIIWhitespace() == "👩‍💻")
        // Only the three: a no-break space or a carriage return stays.
        #expect("\u{A0}x\r".trimmingASCIIWhitespace() == "\u{A0}x\r")
    }

    @Test func readsTheLogLengthFromABoardFilesFirstBytes() {
        func length(_ text: String) -> Int? { BoardStore.logLength(inPrefix: Array(text.utf8)) }
        #expect(length(#"{"id": "x", "log": {"events": 3, "length": 1234, "x": 1}"#) == 1234)
        #expect(length(#"{"log":{"length":7}}"#) == 7)
        // "length" before "log" belongs to something else.
        #expect(length(#"{"length": 9, "log": {"events": 1}}"#) == nil)
        #expect(length(#"{"log": {"length": -4}}"#) == nil)
        #expect(length(#"{"log": {"length": "12"}}"#) == nil)
        #expect(length(#"{"log": {"length": 99999999999999999999999}}"#) == nil)
        #expect(length(#"{"log": {"len"#) == nil)
        // A prefix cut inside a character still finds the key after it.
        #expect(BoardStore.logLength(inPrefix: [0xE2, 0x82] + Array(#"{"log": {"length": 5}"#.utf8)) == 5)
    }
}
