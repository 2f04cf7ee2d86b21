import PMLocalization
import Testing

@Suite struct GrammarTests {
    /// The elidable words French's table declares (`grammar.elisions`).
    static let french = Grammar.elisions("de|le|la|que|ne|je|me|te|se|ce|lorsque|puisque|jusque")

    func render(_ template: String, _ words: String...) throws -> String {
        try MessageFormat(parsing: template, elisions: Self.french).render(words.map { .text($0) })
    }

    @Test func koreanParticlesFollowTheFinalSoundOfHangul() throws {
        let moved = "'%1$@'을(를) %2$@에서 %3$@(으)로 옮겼습니다."
        // 보고서 ends in a vowel, 할 일 in ㄹ (로, never 으로), 진행 중 in ㅇ.
        #expect(try render(moved, "보고서", "진행 중", "할 일") == "'보고서'를 진행 중에서 할 일로 옮겼습니다.")
        #expect(try render(moved, "회의록", "할 일", "진행 중") == "'회의록'을 할 일에서 진행 중으로 옮겼습니다.")
        #expect(try render(moved, "예산", "진행 중", "완료") == "'예산'을 진행 중에서 완료로 옮겼습니다.")
        #expect(try render("%1$@이(가) 있습니다", "사과") == "사과가 있습니다")
        #expect(try render("%1$@이(가) 있습니다", "책") == "책이 있습니다")
        #expect(try render("%1$@은(는)", "물") == "물은")
        #expect(try render("%1$@와(과) %2$@과(와)", "너", "밥") == "너와 밥과")
        #expect(try render("%1$@(이)나", "책") == "책이나")
        #expect(try render("%1$@(이)나", "차") == "차나")
    }

    @Test func digitsReadAsSinoKoreanNumerals() throws {
        let to = "'%1$@'(으)로"
        // 일 칠 팔 end in ㄹ → 로; 삼 육 영 십 백 in a consonant → 으로; 이 사 오 구 → 로.
        let cases = [
            ("1", "로"), ("7", "로"), ("8", "로"), ("3", "으로"), ("6", "으로"), ("0", "으로"), ("10", "으로"),
            ("100", "으로"), ("2", "로"), ("4", "로"), ("5", "로"), ("9", "로"), ("2026", "으로"), ("v2", "로"),
        ]
        for (word, particle) in cases {
            #expect(try render(to, word) == "'\(word)'\(particle)", "\(word)")
        }
        #expect(try render("%1$@을(를)", "항목 3") == "항목 3을")
        #expect(try render("%1$@을(를)", "항목 2") == "항목 2를")
    }

    @Test func latinWordsReadAsKoreansSayThem() throws {
        let object = "'%1$@'을(를)"
        let cases = [
            ("report", "를"), ("file", "을"), ("email", "을"), ("game", "을"), ("design", "을"), ("meeting", "을"),
            ("web", "을"), ("chat", "을"), ("test", "를"), ("PDF", "를"), ("URL", "을"), ("API", "를"), ("PM", "을"),
            ("Q4 plan", "을"), ("fix bug!", "를"),
            // Not in the product team's list below: the rules, not the exceptions.
            ("notebook", "을"), ("topic", "을"), ("workout", "을"), ("OCR", "을"), ("shipping", "을"), ("tape", "를"),
            ("Slack app", "을"), ("hotdog", "를"),
        ]
        for (word, particle) in cases {
            #expect(try render(object, word) == "'\(word)'\(particle)", "\(word)")
        }
        // Trailing punctuation and emoji are skipped; no letter at all reads as a vowel.
        #expect(try render(object, "보고서 (초안)") == "'보고서 (초안)'을")
        #expect(try render(object, "🎉") == "'🎉'를")
        // Decomposed Hangul (NFD jamo) still finds its final sound.
        #expect(try render(object, "\u{1100}\u{1161}\u{11AB}") == "'\u{1100}\u{1161}\u{11AB}'을")
    }

    /// English words take the particle of how a Korean reads them aloud
    /// (issue 44, item 25: 'Facebook'을, 'GitHub'를): 648 words and names of
    /// a product team (brands, tools, abbreviations, nouns and verbs), each
    /// with its usual Korean reading (Fixtures/english-words-ko.tsv; a
    /// fourth column gives a second common reading, also accepted).
    @Test func englishWordsOfAProductTeamTakeTheParticleOfTheirKoreanReading() throws {
        let path = #filePath.replacingOccurrences(of: "GrammarTests.swift", with: "Fixtures/english-words-ko.tsv")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count >= 300)
        var wrong: [String] = []
        for line in lines {
            let fields = line.split(separator: "\t").map(String.init)
            let readings = [fields[1]] + fields.dropFirst(3).map { String($0.dropFirst("alt=".count)) }
            let sound = Grammar.finalSound(of: fields[0])
            if !readings.contains(where: { Grammar.finalSound(of: $0) == sound }) {
                wrong.append("\(fields[0]) \(fields[1])")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) read wrongly: \(wrong.joined(separator: ", "))")
    }

    @Test func frenchElidesBeforeAVowelOnly() throws {
        let moved = "« %1$@ » déplacée {de} %2$@ vers %3$@."
        #expect(try render(moved, "Rapport", "EN COURS", "TERMINÉ") == "« Rapport » déplacée d’EN COURS vers TERMINÉ.")
        #expect(try render(moved, "Rapport", "À FAIRE", "EN COURS") == "« Rapport » déplacée d’À FAIRE vers EN COURS.")
        #expect(try render(moved, "Rapport", "TERMINÉ", "À FAIRE") == "« Rapport » déplacée de TERMINÉ vers À FAIRE.")
        // Decomposed accents, lower case, y and œ elide; h, digits and quotes do not.
        #expect(try render("{de} %1$@", "A\u{300} FAIRE") == "d’A\u{300} FAIRE")
        #expect(try render("changée {de} %1$@", "aucune") == "changée d’aucune")
        #expect(try render("{le} %1$@", "œuvre") == "l’œuvre")
        #expect(try render("{de} %1$@", "hier") == "de hier")
        #expect(try render("{de} %1$@", "20 nov.") == "de 20 nov.")
        #expect(try render("{que} %1$@", "Yves") == "qu’Yves")
    }

    @Test func brokenOrMisplacedNotationsAreRefused() {
        for template in [
            "%1$@을(가) 옮겼습니다", "%1$@을(를 옮겼습니다", "보드(으)로 %1$@", "을(를) %1$@", "%1$@ 을(를)",
            "{de}%1$@", "{du} %1$@", "{de} texte", "déplacée {de %1$@", "de} %1$@",
        ] {
            #expect(throws: MessageFormat.Problem.self, "\(template)") {
                try MessageFormat(parsing: template, elisions: Self.french)
            }
        }
        // A word a table does not declare elidable is no elision there.
        #expect(throws: MessageFormat.Problem.self) { try MessageFormat(parsing: "{de} %1$@") }
        // Ordinary parentheses are left alone.
        #expect((try? MessageFormat(parsing: "보드(%1$@이(가) 아닌 %2$@)의 것")) != nil)
        #expect((try? MessageFormat(parsing: "실행 취소 기록(history) %1$@")) != nil)
    }
}
