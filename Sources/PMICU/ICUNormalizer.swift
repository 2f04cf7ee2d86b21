internal import CICU

/// Unicode normalization through the system's ICU.
public enum ICUNormalizer {
    /// `text` in composed form (NFC), from the Swift standard library's own
    /// tables: the same on a machine with no ICU (a name typed there must
    /// be the name every other copy keeps), and no ICU loaded for it.
    public static func composed(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        return String(decoding: text._nfcCodeUnits, as: UTF8.self)
    }

    /// `text` in decomposed form (NFD).
    public static func decomposed(_ text: String) -> String { normalize(text, form: 1) }

    private static func normalize(_ text: String, form: Int32) -> String {
        // ASCII is the same in every form.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        let source = Array(text.utf16)
        var capacity = source.count * 3 + 16
        while true {
            var result = [UInt16](repeating: 0, count: capacity)
            var status = U_ZERO_ERROR
            let length = pm_normalize(form, source, Int32(source.count), &result, Int32(capacity), &status)
            if status == U_BUFFER_OVERFLOW_ERROR, Int(length) > capacity {
                capacity = Int(length)
                continue
            }
            guard pm_u_success(status) == 1 else { return text }
            return String(decoding: result[0..<Int(length)], as: UTF16.self)
        }
    }
}
