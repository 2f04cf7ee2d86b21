@_implementationOnly import CICU

/// Terminal cell widths by Unicode East Asian Width, through ICU.
///
/// Wide and fullwidth characters (Hangul, CJK) and emoji take two cells;
/// combining marks, format characters and other default-ignorable code points
/// take none; everything else one. Ambiguous-width characters count as one, as
/// in Western terminals.
public enum TerminalCells {
    /// The number of cells one grapheme cluster takes.
    public static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F {
            return first.value < 0x20 ? 0 : 1
        }
        if first.value == 0x7F { return 0 }
        let value = Int32(bitPattern: first.value)
        let type = pm_char_type(value)
        // A cluster that starts with a zero-width scalar (a stray combining
        // mark, a zero-width joiner) takes no cell of its own.
        if type == 6 || type == 7 || type == 16 || type == 15 || pm_is_default_ignorable(value) == 1 {
            return 0
        }
        let eaw = pm_east_asian_width(value)
        if eaw == 5 || eaw == 3 || pm_is_emoji_presentation(value) == 1 { return 2 }
        if scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        return 1
    }

    /// The number of cells `text` takes.
    public static func width(of text: String) -> Int {
        if let ascii = asciiWidth(text) { return ascii }
        var total = 0
        for character in text { total += width(of: character) }
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
