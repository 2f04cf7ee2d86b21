import PMLocalization
import Testing

@Suite struct StringsTableParserTests {
    func parse(_ text: String) -> ParsedStringsTable { StringsTableParser.parse(bytes: Array(text.utf8)) }

    @Test func entriesCommentsAndEscapesAreRead() {
        let table = parse(
            """
            /* block
               comment */
            "a" = "one"; // trailing
            "b"="two \\"quoted\\" \\\\ \\n \\t \\U00E9 \\UD83D\\UDE00";
            """)
        #expect(table.problems.isEmpty)
        #expect(table.values == ["a": "one", "b": "two \"quoted\" \\ \n \t é 😀"])
        #expect(table.entries.map(\.line) == [3, 4])
    }

    @Test func aBOMAndUTF16AreAccepted() {
        #expect(StringsTableParser.parse(bytes: [0xEF, 0xBB, 0xBF] + Array("\"k\" = \"v\";".utf8)).values == ["k": "v"])
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in "\"k\" = \"한\";".utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(StringsTableParser.parse(bytes: utf16).values == ["k": "한"])
        var bigEndian: [UInt8] = [0xFE, 0xFF]
        for unit in "\"k\" = \"😀\\r\";".utf16 { bigEndian += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        #expect(StringsTableParser.parse(bytes: bigEndian).values == ["k": "😀\r"])
        // A lone surrogate in UTF-16 is a wrong encoding, with its line.
        let broken: [UInt8] = [0xFF, 0xFE, 0x0A, 0x00, 0x00, 0xD8, 0x41, 0x00]
        #expect(StringsTableParser.parse(bytes: broken).problems.first?.line == 2)
    }

    @Test func everyProblemIsReportedWithItsLineAndLaterEntriesSurvive() {
        let table = parse(
            """
            "ok1" = "a";
            "noSemicolon" = "b"
            "ok2" = "c";
            # not a comment
            "ok3" = "d"; ]
            "noEquals" "e";
            "ok1" = "dup";
            "badEscape" = "\\q";
            "ok4" = "f";
            """)
        #expect(table.values["ok2"] == "c")
        #expect(table.values["ok3"] == "d")
        #expect(table.values["ok4"] == "f")
        #expect(table.values["ok1"] == "a")
        let lines = table.problems.map(\.line)
        #expect(lines == [2, 4, 5, 6, 7, 8])
        #expect(table.problems[0].kind == .missingSemicolon)
        #expect(table.problems.contains { $0.kind == .duplicateKey("ok1", firstLine: 1) && $0.line == 7 })
        #expect(table.problems.contains { $0.kind == .badEscape("\\q") && $0.line == 8 })
        #expect(table.problems.contains { $0.kind == .missingEquals && $0.line == 6 })
    }

    @Test func unterminatedStringsAndCommentsAreFound() {
        #expect(parse("\"a\" = \"b\";\n\"c\" = \"open;\n").problems == [.init(line: 2, kind: .unterminatedString)])
        #expect(parse("\"a\" = \"b\";\n/* never closed\n").problems == [.init(line: 2, kind: .unterminatedComment)])
    }

    @Test func aWrongEncodingIsReported() {
        let table = StringsTableParser.parse(bytes: Array("\"a\" = \"b\";\n\"c\" = \"".utf8) + [0xE9] + Array("\";".utf8))
        #expect(table.problems == [.init(line: 2, kind: .wrongEncoding(byteOffset: 18))])
    }
}

@Suite struct MessageFormatTests {
    @Test func placeholdersAreTypedAndPositional() throws {
        let format = try MessageFormat(parsing: "Moved '%1$@' from %2$@ to %3$@ (%4$d) 100%%")
        #expect(format.signature == [.text, .text, .text, .number])
        #expect(format.render([.text("A"), .text("B"), .text("C"), .number(3)]) == "Moved 'A' from B to C (3) 100%")
        let korean = try MessageFormat(parsing: "'%1$@'을(를) %2$@에서 %3$@(으)로")
        #expect(korean.render([.text("A"), .text("B"), .text("C")]) == "'A'를 B에서 C로")
        let reordered = try MessageFormat(parsing: "%2$@ ← %1$@")
        #expect(reordered.render([.text("x"), .text("y")]) == "y ← x")
        #expect(try MessageFormat(parsing: "%@ and %d, %ld").signature == [.text, .number, .number])
    }

    @Test(arguments: ["%n", "%s", "%f", "%1$s", "%", "abc %", "%1$@ %1$d", "%2$@"])
    func dangerousOrBrokenSpecifiersAreRefused(_ text: String) {
        #expect(throws: MessageFormat.Problem.self) { try MessageFormat(parsing: text) }
    }
}
