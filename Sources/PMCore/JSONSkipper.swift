extension JSONReader {
    /// Validates and skips one value with a tight loop and an explicit stack:
    /// the history of a large board is skipped, not built, on every command
    /// that does not show it, so this is the decoder's hottest path.
    mutating func skipValueFast() throws {
        enum Expect { case value, keyOrClose, key, colon, commaOrClose }
        var stack: [UInt8] = []  // "{" or "["
        stack.reserveCapacity(16)
        // The keys of the open objects, as byte ranges, to refuse a key named twice.
        var keys = OpenObjectKeys()
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
                    keys.open()
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
                    keys.close()
                    index += 1
                    expect = .commaOrClose
                } else {
                    guard byte == UInt8(ascii: "\"") else { throw failure() }
                    let start = index
                    try skipString()
                    try keys.add(start + 1..<index - 1, in: bytes)
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
                if top == UInt8(ascii: "{") { keys.close() }
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

/// The keys of the objects the skipper is inside, innermost last, kept as
/// byte ranges in one flat array so that skipping allocates nothing per object.
struct OpenObjectKeys {
    private var ranges: [Range<Int>] = []
    private var starts: [Int] = []

    init() {
        ranges.reserveCapacity(64)
        starts.reserveCapacity(16)
    }

    mutating func open() { starts.append(ranges.count) }

    mutating func close() {
        guard let start = starts.popLast() else { return }
        ranges.removeSubrange(start...)
    }

    /// Adds a key (the bytes between its quotes) to the innermost object.
    /// - Throws: a duplicate-key failure when that object has it already.
    mutating func add(_ key: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) throws {
        let base = starts.last ?? 0
        for other in ranges[base...] where Self.same(other, key, in: bytes) {
            let text = JSONReader.decodedKey(key, in: bytes)
            throw JSONReader.Failure(offset: key.lowerBound - 1, reason: .duplicateKey(text))
        }
        ranges.append(key)
    }

    private static func same(_ a: Range<Int>, _ b: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let escaped = bytes[a].contains(UInt8(ascii: "\\")) || bytes[b].contains(UInt8(ascii: "\\"))
        if escaped { return JSONReader.decodedKey(a, in: bytes) == JSONReader.decodedKey(b, in: bytes) }
        guard a.count == b.count else { return false }
        return bytes[a].elementsEqual(bytes[b])
    }
}

extension JSONReader {
    /// A key's text, escapes resolved (the bytes between its quotes).
    static func decodedKey(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        var reader = JSONReader(bytes, at: range.lowerBound - 1)
        return (try? reader.readString()) ?? ""
    }
}
