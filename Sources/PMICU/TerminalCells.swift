internal import CICU

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
        case 0x2713: return 1  // ✓ (narrow, not an emoji): the checklist's mark on every card a list shows
        default: break
        }
        let value = Int32(bitPattern: v)
        let type = pm_char_type(value)
        if type < 0 { return invariantWidth(of: scalar) }
        // Combining marks, format and control characters, other invisibles.
        if type == 6 || type == 7 || type == 16 || type == 15 || pm_is_default_ignorable(value) == 1 { return 0 }
        let eaw = pm_east_asian_width(value)
        if eaw == 5 || eaw == 3 || pm_is_emoji_presentation(value) == 1 { return 2 }
        return 1
    }

    /// The width without ICU: the categories Swift's own Unicode tables
    /// know, and the East Asian wide and fullwidth blocks.
    static func invariantWidth(of scalar: Unicode.Scalar) -> Int {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if properties.isDefaultIgnorableCodePoint { return 0 }
        if properties.isEmojiPresentation { return 2 }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return 2
        default: return 1
        }
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
        let scanned = text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            for byte in bytes where byte < 0x20 || byte >= 0x7F { return nil }
            return bytes.count
        }
        if let scanned { return scanned }
        var count = 0
        for byte in text.utf8 {
            guard byte >= 0x20, byte < 0x7F else { return nil }
            count += 1
        }
        return count
    }

    /// ``truncate(_:toWidth:ellipsis:)`` and the width of what it returns, in one go.
    public static func fit(_ text: String, toWidth limit: Int) -> (text: String, width: Int) {
        guard limit > 0 else { return ("", 0) }
        if let ascii = asciiWidth(text) {
            if ascii <= limit { return (text, ascii) }
        } else if let fitted = fitByScalars(text, toWidth: limit, ellipsis: "…") {
            return fitted
        }
        let cut = truncate(text, toWidth: limit)
        return (cut, width(of: cut))
    }

    /// The width of `ellipsis`, without asking ICU for the usual one.
    private static func width(ofEllipsis ellipsis: String) -> Int {
        ellipsis == "…" ? 1 : width(of: ellipsis)
    }

    /// `text` cut to at most `limit` cells on a grapheme boundary, ending in
    /// `ellipsis` when anything was cut.
    public static func truncate(_ text: String, toWidth limit: Int, ellipsis: String = "…") -> String {
        guard limit > 0 else { return "" }
        if let ascii = asciiWidth(text) {
            if ascii <= limit { return text }
            if limit >= 2 { return String(decoding: text.utf8.prefix(limit - 1), as: UTF8.self) + ellipsis }
        }
        if let cut = truncateByScalars(text, toWidth: limit, ellipsis: ellipsis) { return cut }
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

    /// How ``fit(_:toWidth:)`` cuts `text` with "…", when it is a prefix
    /// of the text's bytes: the first `kept` UTF-8 bytes, then the ellipsis
    /// if `ellipsis`, `width` cells in all; nil when only ``fit(_:toWidth:)``
    /// can say (code points that join, or take no cells). For a caller that
    /// writes bytes: no String is made.
    public static func fitPrefix(_ text: String, toWidth limit: Int) -> (kept: Int, ellipsis: Bool, width: Int)? {
        guard limit > 0 else { return (0, false, 0) }
        let measured = text.utf8.withContiguousStorageIfAvailable { measure($0, limit: limit, ellipsisWidth: 1) }
        return measured ?? nil
    }

    /// The bytes of `bytes` (valid UTF-8) that fit in `limit` cells: all
    /// of them, or as many as fit in `limit - ellipsisWidth` and then the
    /// ellipsis; nil when a code point may join its neighbour into one
    /// character or takes no cells (cutting between code points would then
    /// not be cutting between characters).
    static func measure(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int, ellipsisWidth: Int) -> (
        kept: Int, ellipsis: Bool, width: Int
    )? {
        var total = 0
        var index = 0
        var cut = -1
        var widthAtCut = 0
        let room = limit - ellipsisWidth
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 {
                // Printable ASCII: one cell, joins nothing; a control character has no width.
                guard lead >= 0x20, lead < 0x7F else { return nil }
                if cut < 0, total + 1 > room { (cut, widthAtCut) = (index, total) }
                total += 1
                index += 1
                continue
            }
            if lead >= 0xEA, lead <= 0xED, index + 2 < bytes.count {
                // A Hangul syllable (U+AC00–U+D7A3): two cells, joins nothing.
                let value =
                    UInt32(lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
                if value >= 0xAC00, value <= 0xD7A3 {
                    if cut < 0, total + 2 > room { (cut, widthAtCut) = (index, total) }
                    total += 2
                    index += 3
                    continue
                }
            }
            var value: UInt32
            var size: Int
            if lead < 0xE0 {
                (value, size) = (UInt32(lead & 0x1F), 2)
            } else if lead < 0xF0 {
                (value, size) = (UInt32(lead & 0x0F), 3)
            } else {
                (value, size) = (UInt32(lead & 0x07), 4)
            }
            guard index + size <= bytes.count else { return nil }
            for offset in 1..<size { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
            guard let scalar = Unicode.Scalar(value) else { return nil }
            let w = width(of: scalar)
            if w == 0 || mayJoin(scalar) { return nil }
            if cut < 0, total + w > room { (cut, widthAtCut) = (index, total) }
            total += w
            index += size
        }
        if total <= limit { return (bytes.count, false, total) }
        guard room >= 0 else { return (0, false, 0) }
        if cut < 0 { (cut, widthAtCut) = (bytes.count, total) }
        return (cut, true, widthAtCut + ellipsisWidth)
    }

    /// The fast path of ``truncate(_:toWidth:ellipsis:)`` for text in which
    /// every code point is its own grapheme cluster (no combining marks,
    /// joiners, selectors, conjoining jamo or regional indicators): cutting
    /// between code points is then cutting between characters. Nil otherwise.
    static func truncateByScalars(_ text: String, toWidth limit: Int, ellipsis: String) -> String? {
        fitByScalars(text, toWidth: limit, ellipsis: ellipsis)?.text
    }

    /// ``truncateByScalars(_:toWidth:ellipsis:)`` and the width of what it
    /// returns, measured in the same pass.
    static func fitByScalars(_ text: String, toWidth limit: Int, ellipsis: String) -> (text: String, width: Int)? {
        let ellipsisWidth = width(ofEllipsis: ellipsis)
        let fast = text.utf8.withContiguousStorageIfAvailable { bytes -> (text: String, width: Int)?? in
            guard let fitted = measure(bytes, limit: limit, ellipsisWidth: ellipsisWidth) else { return .some(nil) }
            if fitted.kept == bytes.count, !fitted.ellipsis { return .some((text, fitted.width)) }
            let kept = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<fitted.kept]), as: UTF8.self)
            return .some((fitted.ellipsis ? kept + ellipsis : kept, fitted.width))
        }
        if let answered = fast { return answered ?? nil }
        var total = 0
        for scalar in text.unicodeScalars {
            let w = width(of: scalar)
            if w == 0 || mayJoin(scalar) { return nil }
            total += w
        }
        if total <= limit { return (text, total) }
        let room = limit - ellipsisWidth
        guard room >= 0 else { return ("", 0) }
        // One slice, not a string grown a code point at a time.
        let scalars = text.unicodeScalars
        var end = scalars.startIndex
        var used = 0
        while end < scalars.endIndex {
            let w = width(of: scalars[end])
            if used + w > room { break }
            used += w
            scalars.formIndex(after: &end)
        }
        return (String(scalars[..<end]) + ellipsis, used + ellipsisWidth)
    }

    /// Code points that can join a neighbour into one grapheme cluster.
    static func mayJoin(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF, 0xA960...0xA97F, 0xD7B0...0xD7FF: return true  // conjoining jamo
        case 0x1F1E6...0x1F1FF, 0x1F3FB...0x1F3FF: return true  // regional indicators, skin tones
        case 0x200C, 0x200D, 0xFE00...0xFE0F, 0xE0100...0xE01EF: return true  // joiners, variation selectors
        case 0x0E31, 0x0E33...0x0E3A, 0x0E47...0x0E4E: return true  // Thai vowels and tones (spacing or not)
        default: return false
        }
    }

    /// `text` followed by spaces up to `cells` cells (never cut).
    public static func pad(_ text: String, toWidth cells: Int) -> String {
        let w = width(of: text)
        return w >= cells ? text : text + String(repeating: " ", count: cells - w)
    }
}
