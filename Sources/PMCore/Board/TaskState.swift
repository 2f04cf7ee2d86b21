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
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        var lowered = [UInt8]()
        lowered.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                lowered.append(byte)
            } else {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): lowered.append(byte)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): lowered.append(byte + 32)
                default: return nil
                }
            }
        }
        rawValue = String(decoding: lowered, as: UTF8.self)
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
