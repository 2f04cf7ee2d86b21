/// A column of the board. The raw value is what the board file and `--json` store.
public enum TaskState: String, CaseIterable, Sendable, Codable {
    case todo, doing, done
}

/// A task's identity: a UUID, written as lowercase text (`8-4-4-4-12` hex
/// digits). Held as its 128 bits: compared, hashed and ordered (the order of
/// the canonical text) without any text, and copied without reference counting.
public struct TaskID: Hashable, Comparable, Sendable, CustomStringConvertible {
    private let high: UInt64
    private let low: UInt64

    /// Validates a UUID string (any case); nil if it is not one.
    public init?(_ text: String) {
        var text = text
        guard let id = text.withUTF8({ TaskID(utf8: $0) }) else { return nil }
        self = id
    }

    /// Validates a UUID's UTF-8 bytes (any case); nil if they are not one.
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        let dash = UInt8(ascii: "-")
        guard bytes.count == 36, bytes[8] == dash, bytes[13] == dash, bytes[18] == dash, bytes[23] == dash else {
            return nil
        }
        // Branch-free per digit: every id of a board passes here on a read.
        var invalid = false
        func digits(_ positions: Range<Int>, into word: inout UInt64) {
            for position in positions {
                let byte = bytes[position]
                let digit = byte &- UInt8(ascii: "0")
                let letter = (byte | 0x20) &- UInt8(ascii: "a")
                let isDigit = digit < 10
                invalid = invalid || (!isDigit && letter >= 6)
                word = word << 4 | UInt64(isDigit ? digit : letter &+ 10)
            }
        }
        var high: UInt64 = 0
        var low: UInt64 = 0
        digits(0..<8, into: &high)
        digits(9..<13, into: &high)
        digits(14..<18, into: &high)
        digits(19..<23, into: &low)
        digits(24..<36, into: &low)
        guard !invalid else { return nil }
        self.high = high
        self.low = low
    }

    /// An id already known to be a UUID string (pm's own).
    init(unchecked rawValue: String) {
        self = TaskID(rawValue) ?? TaskID(high: 0, low: 0)
    }

    /// The id whose 128 bits are these two words (``words``).
    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The id's 128 bits, high word first.
    var words: (high: UInt64, low: UInt64) { (high, low) }

    /// One of 64 bits, from every digit of the id (for a filter of a few ids).
    var filterBit: UInt64 { ((high ^ low) &* 0x9E37_79B9_7F4A_7C15) >> 58 }

    public static func < (lhs: TaskID, rhs: TaskID) -> Bool {
        lhs.high != rhs.high ? lhs.high < rhs.high : lhs.low < rhs.low
    }

    /// The canonical lowercase form.
    public var rawValue: String {
        String(unsafeUninitializedCapacity: 36) { buffer in
            var position = 0
            for digit in 0..<32 {
                if digit == 8 || digit == 12 || digit == 16 || digit == 20 {
                    buffer[position] = UInt8(ascii: "-")
                    position += 1
                }
                buffer[position] = Self.hex[nibble(digit)]
                position += 1
            }
            return 36
        }
    }

    fileprivate static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Hex digit `index` (0…31) as a number.
    @inline(__always)
    private func nibble(_ index: Int) -> Int {
        let word = index < 16 ? high : low
        return Int(truncatingIfNeeded: word >> UInt64(60 - 4 * (index & 15))) & 0xF
    }

    /// Ids whose hex digits start with a given prefix, matched as two masked
    /// integers: a lookup compares every id of the board.
    public struct HexPrefix: Sendable {
        private var high: UInt64 = 0
        private var low: UInt64 = 0
        private var highMask: UInt64 = 0
        private var lowMask: UInt64 = 0

        /// Nil unless `digits` are 0 to 32 lowercase ASCII hex digits.
        public init?(_ digits: [UInt8]) {
            guard digits.count <= 32 else { return nil }
            for (index, digit) in digits.enumerated() {
                guard let value = TaskID.hex.firstIndex(of: digit) else { return nil }
                let shift = UInt64(60 - 4 * (index & 15))
                if index < 16 {
                    high |= UInt64(value) << shift
                    highMask |= 0xF << shift
                } else {
                    low |= UInt64(value) << shift
                    lowMask |= 0xF << shift
                }
            }
        }

        @inline(__always)
        public func matches(_ id: TaskID) -> Bool {
            id.high & highMask == high && id.low & lowMask == low
        }
    }

    /// Whether the id's hex digits start with `prefix` (lowercase ASCII hex digits).
    public func hasHexPrefix(_ prefix: [UInt8]) -> Bool {
        guard prefix.count <= 32 else { return false }
        for (index, digit) in prefix.enumerated() where Self.hex[nibble(index)] != digit { return false }
        return true
    }

    /// How many leading hex digits this id shares with `other` (32 when equal).
    public func commonHexDigits(with other: TaskID) -> Int {
        if high != other.high { return (high ^ other.high).leadingZeroBitCount / 4 }
        if low != other.low { return 16 + (low ^ other.low).leadingZeroBitCount / 4 }
        return 32
    }

    public var description: String { rawValue }

    /// The id's hex digits without dashes, the form prefixes are matched against.
    public var hexDigits: String { String(decoding: hexDigitBytes, as: UTF8.self) }

    /// The 32 hex digits as ASCII bytes.
    public var hexDigitBytes: [UInt8] {
        (0..<32).map { Self.hex[nibble($0)] }
    }

    /// The first `length` hex digits (at most 32), made without an array:
    /// `pm list` makes one for every task it shows.
    public func hexPrefix(_ length: Int) -> String {
        let count = min(max(length, 0), 32)
        return String(unsafeUninitializedCapacity: count) { buffer in
            for index in 0..<count { buffer[index] = Self.hex[nibble(index)] }
            return count
        }
    }

    /// The first `length` hex digits (at most 32), written at the end of `bytes`.
    public func appendHexPrefix(_ length: Int, to bytes: inout [UInt8]) {
        for index in 0..<min(max(length, 0), 32) { bytes.append(Self.hex[nibble(index)]) }
    }
}
