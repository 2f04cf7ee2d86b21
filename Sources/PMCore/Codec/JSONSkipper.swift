#if canImport(Glibc)
    import Glibc
#endif

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
                    let escaped = try skipString()
                    try keys.add(start + 1..<index - 1, escaped: escaped, in: bytes)
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
    private var keys: [Range<Int>] = []
    /// The outer objects' key starts and masks; the innermost object's are
    /// in `start` and `mask`, so the common case touches no array but `keys`.
    private var outer: [(start: Int, mask: UInt64)] = []
    private var start = 0
    /// A 64-bit mask of cheap key hashes of the innermost object: a key whose
    /// bit is clear is new without any comparison; only a collision (or an
    /// escaped key) compares bytes.
    private var mask: UInt64 = 0

    init() {
        keys.reserveCapacity(64)
        outer.reserveCapacity(16)
    }

    mutating func open() {
        outer.append((start, mask))
        start = keys.count
        mask = 0
    }

    mutating func close() {
        keys.removeSubrange(start...)
        if let (start, mask) = outer.popLast() { (self.start, self.mask) = (start, mask) }
    }

    /// Adds a key (the bytes between its quotes) to the innermost object.
    /// - Parameter escaped: the key holds a `\` escape, so equal keys may differ in bytes.
    /// - Throws: a duplicate-key failure when that object has it already.
    @inline(__always)
    mutating func add(_ range: Range<Int>, escaped: Bool, in bytes: UnsafeBufferPointer<UInt8>) throws {
        // Length, first, second and last byte, mixed: no two keys pm writes
        // in one object (task, event, change) share a bit.
        let count = range.count
        var word = UInt32(truncatingIfNeeded: count)
        if count > 0 {
            word |= UInt32(bytes[range.lowerBound]) << 8 | UInt32(bytes[range.upperBound &- 1]) << 24
            if count > 1 { word |= UInt32(bytes[range.lowerBound &+ 1]) << 16 }
        }
        let bit: UInt64 = 1 << UInt64((word &* 0x9E37_79B1) >> 8 & 63)
        if mask & bit != 0 || escaped { try compare(range, in: bytes) }
        // After an escaped key, every later key of this object is compared.
        mask |= escaped ? ~0 : bit
        keys.append(range)
    }

    private func compare(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) throws {
        for other in keys[start...] where Self.same(other, range, in: bytes) {
            throw JSONReader.Failure(offset: range.lowerBound - 1, reason: .duplicateKey(JSONReader.decodedKey(range, in: bytes)))
        }
    }

    private static func same(_ a: Range<Int>, _ b: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if bytes[a].contains(UInt8(ascii: "\\")) || bytes[b].contains(UInt8(ascii: "\\")) {
            return JSONReader.decodedKey(a, in: bytes) == JSONReader.decodedKey(b, in: bytes)
        }
        guard a.count == b.count, let base = bytes.baseAddress else { return false }
        return memcmp(base + a.lowerBound, base + b.lowerBound, a.count) == 0
    }
}

extension JSONReader {
    /// A key's text, escapes resolved (the bytes between its quotes).
    static func decodedKey(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        var reader = JSONReader(bytes, at: range.lowerBound - 1)
        return (try? reader.readString()) ?? ""
    }
}
