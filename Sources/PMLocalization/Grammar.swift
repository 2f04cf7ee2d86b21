/// The grammar of inserted words (L10N.md): Korean particles chosen from the
/// final sound of the word before them, and French elision before a vowel.
///
/// Notation, as translators write it (Localization/README.md):
/// - Korean: a particle pair right after a placeholder, optionally after a
///   closing quote: `'%1$@'을(를)`, `%2$@(으)로`, `%1$@이(가)`, `%1$@은(는)`,
///   `%1$@과(와)`, `(이)나`, `(이)라`, `(이)랑`. The localizer writes the form
///   the inserted word takes: `'보고서'를`, `'완료'로`, `'할 일'로`, `'파일'로`.
/// - French: an elidable word in braces right before a placeholder:
///   `{de} %2$@` gives `de TERMINÉ` but `d’EN COURS`; `{le} %1$@`, `{que} %1$@`.
public enum Grammar {
    /// The last sound of a word as Korean reads it aloud.
    public enum FinalSound: Sendable, Equatable {
        /// Ends in a vowel: 를, 가, 는, 와, 로.
        case vowel
        /// Ends in ㄹ: 을, 이, 은, 과, but 로.
        case rieul
        /// Ends in another consonant: 을, 이, 은, 과, 으로.
        case consonant
    }

    /// A Korean particle pair.
    struct Particle: Sendable, Equatable {
        /// The notation as written in the table.
        let notation: String
        let afterConsonant: String
        let afterVowel: String
        /// After ㄹ: `로` for `(으)로`, otherwise the consonant form.
        let afterRieul: String

        func form(after sound: FinalSound) -> String {
            switch sound {
            case .vowel: return afterVowel
            case .rieul: return afterRieul
            case .consonant: return afterConsonant
            }
        }
    }

    static let particles: [Particle] = {
        var list: [Particle] = []
        for (consonant, vowel) in [("을", "를"), ("이", "가"), ("은", "는"), ("과", "와"), ("아", "야")] {
            list.append(
                Particle(notation: "\(consonant)(\(vowel))", afterConsonant: consonant, afterVowel: vowel, afterRieul: consonant))
            list.append(
                Particle(notation: "\(vowel)(\(consonant))", afterConsonant: consonant, afterVowel: vowel, afterRieul: consonant))
        }
        list.append(Particle(notation: "(으)로", afterConsonant: "으로", afterVowel: "로", afterRieul: "로"))
        for tail in ["나", "라", "랑", "며", "고", "에요", "었다", "다"] {
            list.append(Particle(notation: "(이)\(tail)", afterConsonant: "이\(tail)", afterVowel: tail, afterRieul: "이\(tail)"))
        }
        // Longest first, so `(이)에요` wins over a shorter match.
        return list.sorted { $0.notation.count > $1.notation.count }
    }()

    /// Closing marks that may stand between a placeholder and its particle.
    static let closingMarks: Set<Character> = ["'", "\"", "’", "”", "»", "」", "』", ")", "]", "》", "〉"]

    /// The words a table declares elidable before a vowel (`grammar.elisions`,
    /// a `|` list; `-` for none), lowercased.
    public static func elisions(_ declared: String?) -> Set<String> {
        Set((declared ?? "").split(separator: "|").map { $0.lowercased() }.filter { $0 != "-" && !$0.isEmpty })
    }

    /// The particle notation `text` opens with, if any.
    static func particle(startingAt text: Substring) -> Particle? {
        particles.first { text.hasPrefix($0.notation) }
    }

    // MARK: Korean

    /// The final sound of `word` as read aloud in Korean: Hangul by its last
    /// syllable's final consonant, numbers as Sino-Korean numerals, Latin
    /// letters as the English word or the letters' names. Trailing
    /// punctuation and symbols are skipped; anything else reads as a vowel.
    public static func finalSound(of word: String) -> FinalSound {
        let scalars = Array(word.unicodeScalars)
        var end = scalars.count
        while end > 0, !isSounding(scalars[end - 1]) { end -= 1 }
        guard end > 0 else { return .vowel }
        let last = scalars[end - 1]
        let value = last.value
        if (0xAC00...0xD7A3).contains(value) {
            let final = (value - 0xAC00) % 28
            return final == 0 ? .vowel : final == 8 ? .rieul : .consonant
        }
        if (0x3131...0x314E).contains(value) { return value == 0x3139 ? .rieul : .consonant }
        // Decomposed (NFD) Hangul: a final consonant jamo, or a vowel jamo.
        if (0x11A8...0x11FF).contains(value) { return value == 0x11AF ? .rieul : .consonant }
        if (0x1161...0x11A7).contains(value) { return .vowel }
        if (0x314F...0x3163).contains(value) { return .vowel }
        if isDigit(last) {
            var start = end - 1
            while start > 0, isDigit(scalars[start - 1]) { start -= 1 }
            return numberSound(scalars[start..<end].map { Int($0.value - 0x30) })
        }
        if isLatin(last) {
            var start = end - 1
            while start > 0, isLatin(scalars[start - 1]) { start -= 1 }
            return latinSound(String(String.UnicodeScalarView(scalars[start..<end])))
        }
        return .vowel
    }

    /// Sino-Korean numerals: 일 칠 팔 end in ㄹ; 영 삼 육 and 십 백 천 만 in
    /// a consonant; 이 사 오 구 in a vowel.
    static func numberSound(_ digits: [Int]) -> FinalSound {
        guard let last = digits.last else { return .vowel }
        if last == 0 {
            // 10 십, 100 백, 1000 천, 10000 만…: all end in a consonant, as does 영.
            return .consonant
        }
        switch last {
        case 1, 7, 8: return .rieul
        case 3, 6: return .consonant
        default: return .vowel
        }
    }

    /// English words whose usual Korean reading no spelling rule gives,
    /// matched at the end of a word (GitHub 깃허브, prototype 프로토타입) or,
    /// when marked whole, as the word alone. Each is in the test's list of
    /// a product team's words (Tests/PMLocalizationTests/Fixtures).
    static let latinExceptions: [(ending: String, whole: Bool, sound: FinalSound)] = [
        ("hub", false, .vowel),  // 허브, where club 클럽 and tab 탭 close
        ("check", false, .vowel),  // 체크, where click 클릭 and stack 스택 close
        ("type", false, .consonant),  // 타입, where tape 테이프 opens
        ("talk", false, .consonant),  // 카카오톡
        ("scout", false, .vowel),  // 스카우트, where layout 레이아웃 closes
        ("datadog", true, .consonant),  // 데이터독, where hotdog 핫도그 opens
        ("lag", true, .consonant),  // 렉
        ("leak", true, .consonant),  // 릭, where speak 스피크 opens
        ("theme", true, .vowel),  // 테마
        ("template", true, .consonant),  // 템플릿, where update 업데이트 opens
        ("group", true, .consonant),  // 그룹, where soup 수프 opens
        ("readme", true, .vowel),  // 리드미, where time 타임 closes
    ]

    /// An English word or abbreviation as Koreans read it: `file` 파일 (ㄹ),
    /// `game` 게임, `web` 웹, `test` 테스트, `PDF` 피디에프, `URL` 유알엘.
    /// Abbreviations by their letters' names; words by the loanword rules
    /// (외래어 표기법): a voiceless stop after a short vowel closes the
    /// syllable (web 웹, book 북, epic 에픽, app 앱), after a consonant or a
    /// long vowel it takes 으 (test 테스트, cake 케이크); then the exceptions.
    static func latinSound(_ word: String) -> FinalSound {
        let letters = Array(word.lowercased())
        guard let last = letters.last else { return .vowel }
        let vowels: Set<Character> = ["a", "e", "i", "o", "u", "y", "é", "è", "ê", "à", "â", "ô", "î", "û"]
        let isAbbreviation = word.count <= 3 && word == word.uppercased() || !letters.contains { vowels.contains($0) }
        if isAbbreviation || letters.count == 1 {
            // The last letter's name: 엘 and 알 end in ㄹ, 엠 and 엔 in a consonant, the rest in a vowel.
            switch last {
            case "l", "r": return .rieul
            case "m", "n": return .consonant
            default: return .vowel
            }
        }
        let lowered = String(letters)
        if let exception = latinExceptions.first(where: {
            $0.whole ? lowered == $0.ending : lowered.hasSuffix($0.ending)
        }) {
            return exception.sound
        }
        let previous = letters.count >= 2 ? letters[letters.count - 2] : " "
        let beforePrevious = letters.count >= 3 ? letters[letters.count - 3] : " "
        let third = letters.count >= 4 ? letters[letters.count - 4] : " "
        switch last {
        case "l": return .rieul
        case "m", "n": return .consonant
        case "g" where previous == "n": return .consonant
        case "e" where previous == "l": return .rieul
        case "e" where previous == "m" || previous == "n": return .consonant
        case "k" where previous == "c": return .consonant
        // 북, 훅, 룩: a short oo; 아웃: layout, checkout, timeout.
        case "k" where previous == "o" && beforePrevious == "o": return .consonant
        case "t" where previous == "u" && beforePrevious == "o": return .consonant
        // A doubled stop after one vowel: app 앱, but a long vowel before still opens.
        case "b" where previous == last, "p" where previous == last, "t" where previous == last:
            return vowels.contains(beforePrevious) && !vowels.contains(third) ? .consonant : .vowel
        case "b", "c", "k", "p", "t":
            // A stop after one short vowel is read closed (web 웹, chat 챗,
            // set 셋, Mac 맥); after a consonant or a long vowel it takes 으 (test 테스트).
            return vowels.contains(previous) && !vowels.contains(beforePrevious) ? .consonant : .vowel
        default: return .vowel
        }
    }

    private static func isSounding(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || isDigit(scalar)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        (0x30...0x39).contains(scalar.value)
    }

    private static func isLatin(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
            || ((0xC0...0x24F).contains(value) && value != 0xD7 && value != 0xF7)
    }

    // MARK: French

    /// Whether `word` begins with a vowel sound, so that `de` becomes `d’`.
    /// A word opening with a quote or a digit, or with `h` (aspirated or not,
    /// which pm cannot know), keeps the full form.
    public static func beginsWithVowel(_ word: String) -> Bool {
        guard let first = word.first else { return false }
        let folded = String(first).lowercased().decomposedBase
        return ["a", "e", "i", "o", "u", "y", "æ", "œ"].contains(folded)
    }

    /// `de` → `d’`.
    static func elided(_ word: String) -> String {
        String(word.dropLast()) + "’"
    }
}

extension String {
    /// The first scalar of the canonical decomposition: `é` → `e`, `À` → `A`.
    fileprivate var decomposedBase: String {
        let map: [Character: Character] = [
            "à": "a", "â": "a", "ä": "a", "á": "a", "é": "e", "è": "e", "ê": "e", "ë": "e", "î": "i", "ï": "i", "í": "i",
            "ô": "o", "ö": "o", "ó": "o", "ù": "u", "û": "u", "ü": "u", "ú": "u", "ÿ": "y",
        ]
        guard let first = first else { return self }
        return String(map[first] ?? first)
    }
}
