extension JSONReader {
    /// Validates and skips one value with a tight loop and an explicit stack:
    /// the history of a large board is skipped, not built, on every command
    /// that does not show it, so this is the decoder's hottest path.
    mutating func skipValueFast() throws {
        enum Expect { case value, keyOrClose, key, colon, commaOrClose }
        var stack: [UInt8] = []  // "{" or "["
        stack.reserveCapacity(16)
        var expect = Expect.value
        var afterOpenArray = false
        while true {
            skipWhitespaceFast()
            guard index < bytes.count else { throw failure() }
            let byte = bytes[index]
            switch expect {
            case .value:
                switch byte {
                case UInt8(ascii: "{"):
                    guard stack.count < 512 else { throw failure() }
                    stack.append(byte)
                    index += 1
                    expect = .keyOrClose
                    continue
                case UInt8(ascii: "["):
                    guard stack.count < 512 else { throw failure() }
                    stack.append(byte)
                    index += 1
                    afterOpenArray = true
                    skipWhitespaceFast()
                    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                        stack.removeLast()
                        index += 1
                        afterOpenArray = false
                        expect = .commaOrClose
                    } else {
                        expect = .value
                    }
                    continue
                case UInt8(ascii: "\""):
                    try skipString()
                default:
                    if byte == UInt8(ascii: "]"), afterOpenArray { throw failure() }
                    _ = try readValue(depth: 511)
                }
                afterOpenArray = false
                expect = .commaOrClose
            case .keyOrClose, .key:
                if byte == UInt8(ascii: "}"), expect == .keyOrClose {
                    stack.removeLast()
                    index += 1
                    expect = .commaOrClose
                } else {
                    guard byte == UInt8(ascii: "\"") else { throw failure() }
                    try skipString()
                    expect = .colon
                }
                continue
            case .colon:
                guard byte == UInt8(ascii: ":") else { throw failure() }
                index += 1
                expect = .value
                continue
            case .commaOrClose:
                break
            }
            // After a value: done at the top, else a comma or the container's close.
            guard let top = stack.last else { return }
            skipWhitespaceFast()
            guard index < bytes.count else { throw failure() }
            let next = bytes[index]
            if next == UInt8(ascii: ",") {
                index += 1
                expect = top == UInt8(ascii: "{") ? .key : .value
            } else if (top == UInt8(ascii: "{") && next == UInt8(ascii: "}"))
                || (top == UInt8(ascii: "[") && next == UInt8(ascii: "]"))
            {
                stack.removeLast()
                index += 1
                expect = .commaOrClose
                if stack.isEmpty { return }
                // The closed container was itself a value: look for what follows it.
                continue
            } else {
                throw failure()
            }
        }
    }

    /// Skips white space, eight spaces at a time through indentation.
    @inline(__always)
    mutating func skipWhitespaceFast() {
        if let base = bytes.baseAddress {
            while index + 8 <= bytes.count, UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) == 0x2020_2020_2020_2020
            {
                index += 8
            }
        }
        skipWhitespace()
    }
}
