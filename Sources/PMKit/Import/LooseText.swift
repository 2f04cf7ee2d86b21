import PMICU

/// Text compared the way people type it: case, accents, spaces, hyphens and
/// apostrophes do not matter (`Après-demain` = `apres demain`, `진행 중` = `진행중`).
public enum LooseText {
    public static func fold(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in ICUNormalizer.decomposed(text).lowercased().unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spaceSeparator, .dashPunctuation: continue
            default: break
            }
            if scalar == "'" || scalar == "\u{2019}" || scalar.properties.isWhitespace { continue }
            result.append(scalar)
        }
        // Back to composed form, so Hangul syllables compare as typed.
        return ICUNormalizer.composed(String(result))
    }
}
