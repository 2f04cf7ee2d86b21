@_implementationOnly import CICU

/// Terminal cell widths by Unicode East Asian Width, through ICU.
///
/// Wide and fullwidth characters (Hangul, CJK) and emoji take two cells;
/// combining marks, format characters and other default-ignorable code points
/// take none; everything else one. Ambiguous-width characters count as one, as
/// in Western terminals. Widths are summed per code point, as terminals
/// (wcwidth) do; cutting happens on grapheme boundaries only.
public enum TerminalCells {
    /// The number of cells one code point takes.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        switch v {
        case 0x20..<0x7F: return 1
        case 0..<0x20, 0x7F..<0xA0: return 0
        case 0xA0..<0x300: return 1
        case 0x300..<0x370: return 0
        case 0xAC00...0xD7A3: return 2  // Hangul syllables
        case 0x4E00...0x9FFF: return 2  // CJK unified ideographs
        default: break
        }
        let value = Int32(bitPattern: v)
        let type = pm_char_type(value)
        // Combining marks, format and control characters, other invisibles.
        if type == 6 || type == 7 || type == 16 || type == 15 || pm_is_default_ignorable(value) == 1 { return 0 }
        let eaw = pm_east_asian_width(value)
        if eaw == 5 || eaw == 3 || pm_is_emoji_presentation(value) == 1 { return 2 }
        return 1
    }

    /// The number of cells one grapheme cluster takes.
    public static func width(of character: Character) -> Int {
        width(ofScalars: character.unicodeScalars)
    }

    /// The number of cells `text` takes.
    public static func width(of text: String) -> Int {
        if let ascii = asciiWidth(text) { return ascii }
        return width(ofScalars: text.unicodeScalars)
    }

    private static func width<S: Sequence>(ofScalars scalars: S) -> Int where S.Element == Unicode.Scalar {
        var total = 0
        var previous = 0
        for scalar in scalars {
            // VS16 asks for emoji presentation: a one-cell symbol becomes two.
            if scalar.value == 0xFE0F {
                if previous == 1 {
                    total += 1
                    previous = 2
                }
                continue
            }
            previous = width(of: scalar)
            total += previous
        }
        return total
    }

    /// The width of printable ASCII text (one cell a byte), or nil for anything else.
    static func asciiWidth(_ text: String) -> Int? {
        var count = 0
        for byte in text.utf8 {
            guard byte >= 0x20, byte < 0x7F else { return nil }
            count += 1
        }
        return count
    }

    /// `text` cut to at most `limit` cells on a grapheme boundary, ending in
    /// `ellipsis` when anything was cut.
    public static func truncate(_ text: String, toWidth limit: Int, ellipsis: String = "…") -> String {
        guard limit > 0 else { return "" }
        if let ascii = asciiWidth(text) {
            if ascii <= limit { return text }
            if limit >= 2 { return String(decoding: text.utf8.prefix(limit - 1), as: UTF8.self) + ellipsis }
        }
        if width(of: text) <= limit { return text }
        let ellipsisWidth = width(of: ellipsis)
        guard limit >= ellipsisWidth else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let w = width(of: character)
            if used + w > limit - ellipsisWidth { break }
            result.append(character)
            used += w
        }
        return result + ellipsis
    }

    /// `text` followed by spaces up to `cells` cells (never cut).
    public static func pad(_ text: String, toWidth cells: Int) -> String {
        let w = width(of: text)
        return w >= cells ? text : text + String(repeating: " ", count: cells - w)
    }
}
