import PMText
import Testing

/// The `.stringsdict` reader (issue 49, plurals where translation platforms
/// keep them): Apple's plist as Xcode and Weblate write it reads into one
/// entry per message with its categories; anything else is a problem with
/// its line, never a crash, and no entity expands beyond one character.
@Suite struct StringsDictParserTests {
    static let table = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <!-- The header of a column: its name and how many tasks it holds. -->
            <key>list.header</key>
            <dict>
                <key>NSStringLocalizedFormatKey</key>
                <string>%1$@ (%#@count@)</string>
                <key>count</key>
                <dict>
                    <key>NSStringFormatSpecTypeKey</key>
                    <string>NSStringPluralRuleType</string>
                    <key>NSStringFormatValueTypeKey</key>
                    <string>d</string>
                    <key>one</key>
                    <string>%2$d t&#226;che &amp; &lt;1&gt;</string>
                    <key>other</key>
                    <string>%2$d t&#xE2;ches</string>
                </dict>
            </dict>
            <key>empty</key>
            <dict>
                <key>NSStringLocalizedFormatKey</key>
                <string/>
            </dict>
        </dict>
        </plist>
        """

    @Test func aTableAsXcodeWritesIt() {
        let parsed = StringsDictParser.parse(bytes: Array(Self.table.utf8))
        #expect(parsed.problems.isEmpty, "\(parsed.problems)")
        #expect(parsed.entries.map(\.key) == ["list.header", "empty"])
        let header = parsed.entries[0]
        #expect(header.format == "%1$@ (%#@count@)" && header.line == 6)
        #expect(header.variables["count"]?.valueType == "d")
        #expect(header.variables["count"]?.forms == ["one": "%2$d tâche & <1>", "other": "%2$d tâches"])
        #expect(parsed.entries[1].format == "" && parsed.entries[1].variables.isEmpty)
    }

    static let broken: [(String, StringsDictProblem.Kind)] = [
        ("<plist><dict><key>a</key></dict></plist>", .malformed("<key>")),
        ("<plist><dict><key>a</key><dict><key>count</key><dict></dict></dict></dict></plist>", .incomplete(key: "a")),
        ("<plist><dict><key>a</key><dict></dict></dict></plist>", .incomplete(key: "a")),
        (
            "<!DOCTYPE plist [<!ENTITY x \"xxxxxxxx\">]><plist><dict></dict></plist>", .internalSubset
        ),
        ("<plist><dict><key>a&x;</key><dict/></dict></plist>", .unknownEntity("x")),
        ("<plist><dict><key>a</key><dict><key>NSStringLocalizedFormatKey</key><string>x</string></dict>", .malformed("</dict>")),
        (
            "<plist><dict><key>a</key><dict><key>NSStringLocalizedFormatKey</key><string>x</strin></dict></dict></plist>",
            .malformed("</string>")
        ),
        ("<plist><dict></dict></plist><plist/>", .malformed("end of file")),
        ("<plist><array/></plist>", .malformed("<plist><dict>")),
        (String(repeating: "<dict>", count: 50), .malformed("less nesting")),
        ("<plist><dict><key>a</key><string>&#0;</string></dict></plist>", .unknownEntity("#0")),
        ("<plist><dict><key>a</key><string>&#xD800;</string></dict></plist>", .unknownEntity("#xD800")),
    ]

    @Test(arguments: broken.indices) func whatIsNotAPluralTableIsSaid(index: Int) {
        let (text, kind) = Self.broken[index]
        let parsed = StringsDictParser.parse(bytes: Array(text.utf8))
        #expect(parsed.problems.map(\.kind).contains(kind), "\(text): \(parsed.problems)")
    }

    @Test func aKeyTwiceKeepsTheFirstAndSaysWhere() {
        let entry = "<key>a</key><dict><key>NSStringLocalizedFormatKey</key><string>x</string></dict>"
        let parsed = StringsDictParser.parse(bytes: Array("<plist><dict>\n\(entry)\n\(entry)\n</dict></plist>".utf8))
        #expect(parsed.entries.count == 1)
        #expect(parsed.problems == [StringsDictProblem(line: 3, kind: .duplicateKey("a", firstLine: 2))])
    }

    /// Random bytes and random cuts of a good table: a result, never a trap.
    @Test func garbageNeverTraps() {
        var random = SystemRandomNumberGenerator()
        let good = Array(Self.table.utf8)
        for _ in 0..<2_000 {
            var bytes = Array(good.prefix(Int.random(in: 0...good.count, using: &random)))
            for _ in 0..<Int.random(in: 0...4, using: &random) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            let parsed = StringsDictParser.parse(bytes: bytes)
            #expect(parsed.entries.count <= 2)
        }
        #expect(StringsDictParser.parse(bytes: [0xFF, 0xFE]).problems.first?.kind == .malformed("UTF-8"))
    }

    /// Each category becomes the key pm's tables use (`list.header.one`),
    /// the text around the variable kept; a format naming no variable gives none.
    @Test func formsAsPmsTablesKeepThem() {
        let parsed = StringsDictParser.parse(bytes: Array(Self.table.utf8))
        let forms = parsed.entries[0].suffixedForms
        #expect(forms.map(\.key) == ["list.header.one", "list.header.other"])
        #expect(forms.map(\.value) == ["%1$@ (%2$d tâche & <1>)", "%1$@ (%2$d tâches)"])
        #expect(parsed.entries[1].suffixedForms.isEmpty)
    }

    /// The variable written positionally (`%1$#@n@`) reads too; two
    /// variables, or a made-up category, give no form.
    @Test func variablesAsExportersWriteThem() {
        func entry(_ format: String, _ forms: [String: String]) -> StringsDictEntry {
            StringsDictEntry(
                key: "k", format: format, variables: ["n": .init(valueType: "d", forms: forms)], line: 1)
        }
        #expect(entry("%1$#@n@", ["one": "%1$d x", "other": "%1$d xs"]).suffixedForms.map(\.value) == ["%1$d x", "%1$d xs"])
        #expect(entry("[%#@n@]", ["few": "a"]).suffixedForms.map(\.key) == ["k.few"])
        #expect(entry("%#@n@ %#@m@", ["one": "a"]).suffixedForms.isEmpty)
        #expect(entry("%#@n@", ["emptyColumn": "RIEN", "other": "b"]).suffixedForms.map(\.key) == ["k.other"])
        #expect(entry("100%", ["other": "b"]).suffixedForms.isEmpty)
    }
}
