import Foundation
import Testing

/// Sentences with inserted titles and column names, as the binary prints
/// them, compared with Fixtures/<lang>/grammar.txt: Korean particles after
/// words ending in a vowel, a consonant, ㄹ, a digit and a Latin letter;
/// French elision before a vowel (`d’EN COURS`) and not before a consonant.
/// Regenerate with `PM_UPDATE_GOLDEN=1 swift test --filter GrammarGoldenTests`.
@Suite struct GrammarGoldenTests {
    /// Titles ending in: a vowel, a consonant, ㄹ, a digit read 삼 and one read 이,
    /// a Latin letter read as a consonant (plan), a vowel (review) and ㄹ (email).
    static let titles = ["보고서", "회의록", "예산 파일", "분기 계획 3", "Roadmap v2", "Q4 plan", "Design review", "email"]

    @Test(arguments: ["en", "fr", "ko"])
    func insertedWordsTakeTheirLanguagesGrammar(language: String) throws {
        let update = ProcessInfo.processInfo.environment["PM_UPDATE_GOLDEN"] == "1"
        let pm = PMBinary(language: GoldenOutputTests.languages[language] ?? "C")
        var transcript = ""
        var minute = 0
        func run(_ arguments: [String]) throws -> String {
            minute += 1
            let time = String(format: "2026-11-21T10:%02d:00Z", minute)
            let result = try pm.run(arguments, ["PM_USER": "ji-woo", "PM_NOW": time, "COLUMNS": "100"])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout + result.stderr
        }
        for title in Self.titles {
            let added = try pm.run(["add", title], ["PM_USER": "ji-woo", "PM_NOW": "2026-11-21T09:00:00Z"])
            let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            // TODO → DOING → DONE → TODO: every column's name as the word before a particle.
            for target in ["doing", "done", "todo"] { transcript += try run(["move", id, target]) }
            transcript += try run(["move", id, "todo"])
            transcript += try run(["edit", id, "--due", "2026-12-01"])
            transcript += try run(["edit", id, "--no-due"])
        }
        transcript += try run(["history", "--limit", "20"])
        let file = PMBinary.packageRoot.appendingPathComponent("Tests/PMEndToEndTests/Fixtures/\(language)/grammar.txt")
        if update {
            try Data(transcript.utf8).write(to: file)
            return
        }
        let expected = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        #expect(transcript == expected, "\(language)/grammar.txt differs; regenerate with PM_UPDATE_GOLDEN=1 if intended")
        // Whatever the golden file says, no notation ever reaches the screen.
        for notation in ["(으)로", "을(를)", "이(가)", "은(는)", "{de}", "de EN", "de À"] {
            #expect(!transcript.contains(notation), "\(language): \(notation)")
        }
    }
}
