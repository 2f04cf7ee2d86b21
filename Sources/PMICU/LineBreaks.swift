internal import CICU

/// Where a line may break, by ICU's rules (UAX #14): between any two
/// ideographs or kana, never before `。` `、` `）` nor after `（`, never
/// inside a Latin word. Help text in a language written without spaces
/// (Japanese, Chinese) is wrapped at these places.
public enum LineBreaks {
    /// Whether `scalar` is a character a line may break around with no
    /// space (line break classes ID, ideographic, and CJ, small kana); false without ICU.
    public static func breaksWithoutSpace(_ scalar: Unicode.Scalar) -> Bool {
        let value = pm_line_break_class(Int32(bitPattern: scalar.value))
        return value == 14 || value == 37  // U_LB_IDEOGRAPHIC, U_LB_CONDITIONAL_JAPANESE_STARTER
    }

    /// `text` cut at every place a line may break (each piece keeps what
    /// follows it up to the next place, spaces included); `[text]` without ICU.
    public static func pieces(of text: String, locale: String) -> [String] {
        let units = Array(text.utf16)
        guard !units.isEmpty else { return [text] }
        var status = U_ZERO_ERROR
        var breaks = [Int32](repeating: 0, count: units.count + 1)
        let count = pm_line_breaks(locale, units, Int32(units.count), &breaks, Int32(breaks.count), &status)
        guard pm_u_success(status) == 1, count > 0, Int(count) <= breaks.count else { return [text] }
        var pieces: [String] = []
        var start = 0
        for end in breaks.prefix(Int(count)).map(Int.init) where end > start && end <= units.count {
            pieces.append(String(decoding: units[start..<end], as: UTF16.self))
            start = end
        }
        if start < units.count { pieces.append(String(decoding: units[start...], as: UTF16.self)) }
        return pieces
    }
}
