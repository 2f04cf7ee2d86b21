import PMICU

/// Checks what a person types before it reaches the board (RELIABILITY.md).
public enum TaskInput {
    /// The longest title, in characters.
    public static let titleLimit = 200
    /// The longest body, in characters.
    public static let bodyLimit = 1000

    /// A valid title: something visible, at most 200 characters, no control
    /// or bidi characters. A title of spaces or invisible characters (`\u{200B}`,
    /// a Hangul filler) would be a card nobody can read or pick.
    public static func validTitle(_ typed: String) throws -> String {
        // Spaces around a title are a slip of the keyboard or the shell, never meant.
        let title = trimmed(typed)
        if !title.unicodeScalars.contains(where: isVisible) { throw PMError.emptyTitle }
        if let scalar = title.unicodeScalars.first(where: TextSafety.isUnsafe) { throw PMError.unsafeTitle(scalar) }
        let length = title.count
        guard length <= titleLimit else { throw PMError.titleTooLong(length: length, limit: titleLimit) }
        return title
    }

    /// `text` without the spaces (not tabs or line breaks, which are refused) at either end.
    static func trimmed(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        func blank(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.generalCategory == .spaceSeparator || scalar == " "
        }
        guard let first = scalars.firstIndex(where: { !blank($0) }), let last = scalars.lastIndex(where: { !blank($0) }) else {
            return ""
        }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[first...last])
        return String(result)
    }

    /// Whether a character leaves a mark on screen on its own.
    static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isWhitespace || properties.isDefaultIgnorableCodePoint { return false }
        switch properties.generalCategory {
        case .control, .format, .nonspacingMark, .enclosingMark, .spaceSeparator, .lineSeparator, .paragraphSeparator,
            .surrogate:
            return false
        default:
            // Blank in every font: the Braille blank and the Hangul fillers.
            return ![0x2800, 0x3164, 0x115F, 0x1160, 0xFFA0].contains(scalar.value)
        }
    }

    /// A valid body: at most 1,000 characters; newlines and tabs allowed, other control characters not.
    public static func validBody(_ body: String) throws -> String {
        if let scalar = body.unicodeScalars.first(where: { $0 != "\n" && $0 != "\t" && TextSafety.isUnsafe($0) }) {
            throw PMError.unsafeBody(scalar)
        }
        let length = body.count
        guard length <= bodyLimit else { throw PMError.bodyTooLong(length: length, limit: bodyLimit) }
        return body
    }
}
