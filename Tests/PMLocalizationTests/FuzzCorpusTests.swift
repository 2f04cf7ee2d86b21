import Foundation
import PMLocalization
import Testing

/// Replays the fuzzer's seed corpus (and any crash saved into it) through the
/// parser and the message formats: every input parses without a trap, and
/// every problem has a line.
@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("fuzz/corpus/strings")

    @Test func theCorpusReplaysCleanly() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path)
        #expect(names.count >= 8)
        var problems = 0
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent(name)))
            let table = StringsTableParser.parse(bytes: bytes)
            for problem in table.problems { #expect(problem.line >= 1, "\(name)") }
            problems += table.problems.count
            for entry in table.entries {
                if let format = try? MessageFormat(parsing: entry.value) {
                    _ = format.render([.text("x")])
                    _ = format.pseudoLocalized().render([.number(2), .text("y")])
                }
            }
        }
        #expect(problems > 0, "the corpus must include broken tables")
    }

    @Test func randomBytesNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = Array("\"=;/*\\\nUu%$@d1 ab".utf8) + [0xFF, 0xFE, 0xC3, 0xA9, 0x00]
        for _ in 0..<2000 {
            let count = Int.random(in: 0..<64, using: &generator)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
            let table = StringsTableParser.parse(bytes: bytes)
            #expect(table.problems.allSatisfy { $0.line >= 1 })
        }
    }
}
