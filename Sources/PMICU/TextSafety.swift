/// Which characters must never reach a terminal raw.
public enum TextSafety {
    /// C0 and C1 controls (ESC starts terminal escape sequences), DEL, and the
    /// bidirectional overrides and isolates that can make text lie about its order.
    @inlinable
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C: return true
        case 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// The UTF-8 lead bytes of every unsafe character beyond ASCII: C1
    /// controls (C2), U+061C (D8), the marks and separators at U+2000–U+206F (E2).
    public static let unsafeLeadBytes: [UInt8] = [0xC2, 0xD8, 0xE2]

    /// False when no byte of `text` can start an unsafe character: ASCII
    /// controls, DEL, or one of ``unsafeLeadBytes``.
    @inlinable
    public static func mayBeUnsafe(_ text: String) -> Bool {
        let scanned = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            // The lead bytes compared one by one: ``unsafeLeadBytes`` is a
            // global, checked for its first use on every byte read.
            for byte in bytes where byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2 {
                return true
            }
            return false
        }
        return scanned ?? true
    }

    /// `text` with every unsafe character shown as `\u{1B}`, so that a title
    /// from someone else's file cannot drive the terminal.
    /// - Parameter keepNewlines: keep `\n` (and tabs) as they are, for bodies.
    @inlinable
    public static func escaped(_ text: String, keepNewlines: Bool = false) -> String {
        guard mayBeUnsafe(text), text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar), !(keepNewlines && (scalar == "\n" || scalar == "\t")) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
