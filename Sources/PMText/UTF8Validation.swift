/// Finds the first byte that does not belong to valid UTF-8.
public enum UTF8Validation {
    /// The offset of the first invalid byte in `bytes`, or nil when all is valid UTF-8.
    public static func firstInvalidOffset(in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { firstInvalidOffset(in: $0) }
    }

    /// The offset of the first invalid byte in `bytes`, or nil when all is valid UTF-8.
    public static func firstInvalidOffset(in bytes: ArraySlice<UInt8>) -> Int? {
        bytes.withUnsafeBufferPointer { firstInvalidOffset(in: $0) }
    }

    /// The offset of the first invalid byte, or nil. Overlong forms, surrogates
    /// and values past U+10FFFF are invalid.
    public static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let end = bytes.count
        var i = 0
        while i < end {
            // ASCII fast path, 32 then eight bytes at a time.
            if i + 8 <= end, let base = bytes.baseAddress {
                let raw = UnsafeRawPointer(base)
                while i + 32 <= end {
                    let words =
                        raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                        | raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
                        | raw.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)
                        | raw.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)
                    guard words & 0x8080_8080_8080_8080 == 0 else { break }
                    i += 32
                }
                guard i + 8 <= end else { continue }
                let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                    continue
                }
            }
            let b0 = bytes[i]
            if b0 < 0x80 {
                i += 1
                continue
            }
            let length: Int
            let minimum: UInt32
            var value: UInt32
            switch b0 {
            case 0xC2...0xDF:
                length = 2
                value = UInt32(b0 & 0x1F)
                minimum = 0x80
            case 0xE0...0xEF:
                length = 3
                value = UInt32(b0 & 0x0F)
                minimum = 0x800
            case 0xF0...0xF4:
                length = 4
                value = UInt32(b0 & 0x07)
                minimum = 0x10000
            default: return i
            }
            guard end - i >= length else { return i }
            for k in 1..<length {
                let b = bytes[i + k]
                guard b & 0xC0 == 0x80 else { return i }
                value = value << 6 | UInt32(b & 0x3F)
            }
            if value < minimum || value > 0x10FFFF || (0xD800...0xDFFF).contains(value) { return i }
            i += length
        }
        return nil
    }
}
