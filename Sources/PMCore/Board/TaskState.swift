/// A column of the board. The raw value is what the board file and `--json` store.
public enum TaskState: String, CaseIterable, Sendable, Codable {
    case todo, doing, done
}

/// A task's identity: a lowercase UUID string (`8-4-4-4-12` hex digits).
public struct TaskID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The canonical lowercase form.
    public let rawValue: String

    /// Validates and lowercases a UUID string; nil if it is not one.
    public init?(_ text: String) {
        // One pass over the bytes; the text itself is kept when already
        // canonical (the board file's case), with no copy.
        var count = 0
        var upper = false
        for byte in text.utf8 {
            guard count < 36 else { return nil }
            if count == 8 || count == 13 || count == 18 || count == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
            } else {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): break
                case UInt8(ascii: "A")...UInt8(ascii: "F"): upper = true
                default: return nil
                }
            }
            count += 1
        }
        guard count == 36 else { return nil }
        rawValue =
            upper
            ? String(decoding: text.utf8.map { (0x41...0x46).contains($0) ? $0 + 32 : $0 }, as: UTF8.self) : text
    }

    /// An id already known to be a lowercase UUID string.
    init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    public static func < (lhs: TaskID, rhs: TaskID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The id's hex digits without dashes, the form prefixes are matched against.
    public var hexDigits: String { String(decoding: hexDigitBytes, as: UTF8.self) }

    /// The 32 hex digits as ASCII bytes.
    public var hexDigitBytes: [UInt8] {
        var result = [UInt8]()
        result.reserveCapacity(32)
        for byte in rawValue.utf8 where byte != UInt8(ascii: "-") { result.append(byte) }
        return result
    }
}
