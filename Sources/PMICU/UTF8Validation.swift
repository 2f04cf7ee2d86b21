/// Finds the first byte that does not belong to valid UTF-8.
public enum UTF8Validation {
    /// The offset (from the collection's start) of the first invalid byte, or nil.
    public static func firstInvalidOffset<C: Collection>(in bytes: C) -> Int? where C.Element == UInt8, C.Index == Int {
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i < end {
            let b0 = bytes[i]
            if b0 < 0x80 { i += 1; continue }
            let length: Int
            var minimum: UInt32
            var value: UInt32
            switch b0 {
            case 0xC2...0xDF: length = 2; value = UInt32(b0 & 0x1F); minimum = 0x80
            case 0xE0...0xEF: length = 3; value = UInt32(b0 & 0x0F); minimum = 0x800
            case 0xF0...0xF4: length = 4; value = UInt32(b0 & 0x07); minimum = 0x10000
            default: return i - bytes.startIndex
            }
            guard end - i >= length else { return i - bytes.startIndex }
            for k in 1..<length {
                let b = bytes[i + k]
                guard b & 0xC0 == 0x80 else { return i - bytes.startIndex }
                value = value << 6 | UInt32(b & 0x3F)
            }
            if value < minimum || value > 0x10FFFF || (0xD800...0xDFFF).contains(value) {
                return i - bytes.startIndex
            }
            i += length
        }
        return nil
    }
}
