#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A strict JSON reader over UTF-8 bytes that the caller has already
/// validated as UTF-8. Fast enough for 100k-task boards, and exact about
/// where a file goes wrong.
struct JSONReader {
    struct Failure: Error {
        var offset: Int
        var reason: CorruptionReason
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int
    /// Where the last key read by ``nextKey(first:)`` starts, for errors about it.
    var keyStart = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    func failure(_ reason: CorruptionReason = .syntax) -> Failure {
        Failure(offset: min(index, bytes.count), reason: index >= bytes.count ? .truncated : reason)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func expect(_ byte: UInt8) throws {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { throw failure() }
        index += 1
    }

    /// Peeks the next non-space byte.
    mutating func peek() throws -> UInt8 {
        skipWhitespace()
        guard index < bytes.count else { throw failure() }
        return bytes[index]
    }

    var atEnd: Bool { index >= bytes.count }

    // MARK: Objects and arrays

    /// Consumes `{`.
    mutating func beginObject() throws { try expect(UInt8(ascii: "{")) }

    /// The next key of an object, or nil after its `}`. `first` tracks the comma.
    mutating func nextKey(first: inout Bool) throws -> String? {
        guard try atNextKey(first: &first) else { return nil }
        let key = try readString()
        try expect(UInt8(ascii: ":"))
        return key
    }

    /// Moves to the opening quote of an object's next key (past the comma)
    /// and returns true, or consumes the `}` and returns false.
    mutating func atNextKey(first: inout Bool) throws -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw failure() }
        if bytes[index] == UInt8(ascii: "}") {
            index += 1
            return false
        }
        if !first {
            guard bytes[index] == UInt8(ascii: ",") else { throw failure() }
            index += 1
            skipWhitespace()
        }
        first = false
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure() }
        keyStart = index
        return true
    }

    /// Consumes `[`.
    mutating func beginArray() throws { try expect(UInt8(ascii: "[")) }

    /// True while the array has another element (consumes the comma), false after `]`.
    mutating func nextElement(first: inout Bool) throws -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw failure() }
        if bytes[index] == UInt8(ascii: "]") {
            index += 1
            return false
        }
        if !first {
            guard bytes[index] == UInt8(ascii: ",") else { throw failure() }
            index += 1
        }
        first = false
        return true
    }

    // MARK: Scalars

    /// Advances `index` past string content that needs no attention: eight
    /// bytes at a time while none is `"`, `\\` or a control character.
    @inline(__always)
    private mutating func skipPlainStringBytes() {
        guard let base = bytes.baseAddress else { return }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let special = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
            if special & highs != 0 { return }
            index += 8
        }
    }

    mutating func readString() throws -> String {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure() }
        index += 1
        let start = index
        while index < bytes.count {
            skipPlainStringBytes()
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try readEscapedString(from: start) }
            if byte < 0x20 { throw failure() }
            index += 1
        }
        throw failure()
    }

    private mutating func readEscapedString(from start: Int) throws -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(
            contentsOf: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self).unicodeScalars)
        var pending: [UInt8] = []
        func flush() {
            if !pending.isEmpty {
                scalars.append(contentsOf: String(decoding: pending, as: UTF8.self).unicodeScalars)
                pending.removeAll(keepingCapacity: true)
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flush()
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw failure() }
            guard byte == UInt8(ascii: "\\") else {
                pending.append(byte)
                index += 1
                continue
            }
            flush()
            index += 1
            guard index < bytes.count else { throw failure() }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                let high = try readHex4()
                var value = high
                if (0xD800...0xDBFF).contains(high) {
                    // A lone surrogate would become U+FFFD: refuse rather than change data.
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                    else { throw failure() }
                    index += 2
                    let low = try readHex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw failure() }
                    value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(value) else { throw failure() }
                scalars.append(scalar)
            default:
                index -= 1
                throw failure()
            }
        }
        throw failure()
    }

    private mutating func readHex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else {
            index = bytes.count
            throw failure()
        }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw failure()
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// A JSON number's literal text, validated.
    mutating func readNumberLiteral() throws -> String {
        skipWhitespace()
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw failure() }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure() }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure() }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    /// A whole number that fits in an `Int`; `field` names it in the error.
    mutating func readInt(field: String) throws -> Int {
        let start = index
        let literal = try readNumberLiteral()
        guard let value = Int(literal) else {
            index = start
            throw Failure(offset: start, reason: .field(field))
        }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private mutating func readLiteral(_ word: StaticString) throws {
        skipWhitespace()
        let count = word.utf8CodeUnitCount
        for k in 0..<count {
            guard index < bytes.count, bytes[index] == word.utf8Start[k] else { throw failure() }
            index += 1
        }
    }

    /// True (and consumed) when the next value is `null`.
    mutating func readNullIfPresent() throws -> Bool {
        if try peek() == UInt8(ascii: "n") {
            try readLiteral("null")
            return true
        }
        return false
    }

    // MARK: Any value

    mutating func readValue(depth: Int = 0) throws -> JSONValue {
        guard depth < 512 else { throw failure() }
        switch try peek() {
        case UInt8(ascii: "{"):
            try beginObject()
            var object: [String: JSONValue] = [:]
            var first = true
            while let key = try nextKey(first: &first) {
                guard object[key] == nil else { throw Failure(offset: keyStart, reason: .duplicateKey(key)) }
                object[key] = try readValue(depth: depth + 1)
            }
            return .object(object)
        case UInt8(ascii: "["):
            try beginArray()
            var array: [JSONValue] = []
            var first = true
            while try nextElement(first: &first) {
                array.append(try readValue(depth: depth + 1))
            }
            return .array(array)
        case UInt8(ascii: "\""):
            return .string(try readString())
        case UInt8(ascii: "t"):
            try readLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try readLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try readLiteral("null")
            return .null
        default:
            return .number(try readNumberLiteral())
        }
    }

    /// Validates and skips a string, starting at its opening quote.
    /// - Returns: whether it held a `\` escape.
    @discardableResult
    mutating func skipString() throws -> Bool {
        let start = index
        index += 1
        while index < bytes.count {
            skipPlainStringBytes()
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return false
            }
            if byte < 0x20 { throw failure() }
            if byte == UInt8(ascii: "\\") {
                // Rare: validate escapes with the full reader.
                index = start
                _ = try readString()
                return true
            }
            index += 1
        }
        throw failure()
    }
}
