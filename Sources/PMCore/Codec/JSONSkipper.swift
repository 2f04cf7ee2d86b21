#if canImport(Glibc)
    import Glibc
#endif

/// What ``JSONReader/skipValueFast()`` reads next.
private enum SkipExpectation { case value, keyOrClose, key, colon, commaOrClose }

extension JSONReader {
    /// Validates and skips one value with a tight loop and an explicit stack:
    /// the history of a large board is skipped, not built, on every command
    /// that does not show it, so this is the decoder's hottest path.
    mutating func skipValueFast() throws {
        // Scratch space on the stack (small enough for Swift to put it
        // there), spilling to the heap only for deep or wide values: this
        // runs once per task on every read of a board, and three arrays
        // allocated per call were a tenth of a `pm list`.
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { kinds in
            try withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: 32) { keys in
                try withUnsafeTemporaryAllocation(of: OpenObjectKeys.Outer.self, capacity: 16) { outer in
                    var stack = ScratchStack(kinds)
                    var open = OpenObjectKeys(keys: ScratchStack(keys), outer: ScratchStack(outer))
                    try skipValueFast(stack: &stack, keys: &open)
                }
            }
        }
    }

    /// Containers nested deeper than this are refused.
    static let maximumSkipDepth = 512

    private mutating func skipValueFast(stack: inout ScratchStack<UInt8>, keys: inout OpenObjectKeys) throws {
        // The open containers, "{" or "[", innermost last.
        var expect = SkipExpectation.value
        var afterOpenArray = false
        while true {
            skipWhitespaceFast()
            guard index < bytes.count else { throw failure() }
            let byte = bytes[index]
            switch expect {
            case .value:
                switch byte {
                case UInt8(ascii: "{"):
                    try skipObjectOpen(stack: &stack, keys: &keys)
                    expect = .keyOrClose
                    continue
                case UInt8(ascii: "["):
                    // An empty array is a whole value at once.
                    let empty = try skipArrayOpen(stack: &stack)
                    afterOpenArray = !empty
                    expect = empty ? .commaOrClose : .value
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
                expect = try skipKeyOrClose(byte, closeAllowed: expect == .keyOrClose, stack: &stack, keys: &keys)
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
            guard stack.count > 0 else { return }
            let top = stack[stack.count - 1]
            skipWhitespaceFast()
            guard index < bytes.count else { throw failure() }
            let next = bytes[index]
            if next == UInt8(ascii: ",") {
                index += 1
                expect = top == UInt8(ascii: "{") ? .key : .value
                continue
            }
            guard Self.closes(next, top) else { throw failure() }
            if top == UInt8(ascii: "{") { keys.close() }
            stack.pop()
            index += 1
            // The closed container was itself a value: look for what follows it.
            expect = .commaOrClose
            if stack.count == 0 { return }
        }
    }

    /// Opens an object: `{` on the stack, a new set of keys.
    @inline(__always)
    private mutating func skipObjectOpen(stack: inout ScratchStack<UInt8>, keys: inout OpenObjectKeys) throws {
        guard stack.count < Self.maximumSkipDepth else { throw failure() }
        stack.push(UInt8(ascii: "{"))
        keys.open()
        index += 1
    }

    /// Opens an array, and closes it at once when it is empty (returns true).
    @inline(__always)
    private mutating func skipArrayOpen(stack: inout ScratchStack<UInt8>) throws -> Bool {
        guard stack.count < Self.maximumSkipDepth else { throw failure() }
        stack.push(UInt8(ascii: "["))
        index += 1
        skipWhitespaceFast()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "]") else { return false }
        stack.pop()
        index += 1
        return true
    }

    /// A key (kept, so that one given twice is refused) or, where the
    /// object may end (`closeAllowed`), its close; returns what comes next.
    @inline(__always)
    private mutating func skipKeyOrClose(
        _ byte: UInt8, closeAllowed: Bool, stack: inout ScratchStack<UInt8>, keys: inout OpenObjectKeys
    ) throws -> SkipExpectation {
        if byte == UInt8(ascii: "}"), closeAllowed {
            stack.pop()
            keys.close()
            index += 1
            return .commaOrClose
        }
        guard byte == UInt8(ascii: "\"") else { throw failure() }
        let start = index
        let escaped = try skipString()
        try keys.add(start + 1..<index - 1, escaped: escaped, in: bytes)
        return .colon
    }

    /// Whether `byte` closes the container `open` opened (`{` or `[`).
    @inline(__always)
    private static func closes(_ byte: UInt8, _ open: UInt8) -> Bool {
        (open == UInt8(ascii: "{") && byte == UInt8(ascii: "}")) || (open == UInt8(ascii: "[") && byte == UInt8(ascii: "]"))
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

/// A stack in scratch space the caller lends, then in an array past it.
struct ScratchStack<Element> {
    private let inline: UnsafeMutableBufferPointer<Element>
    private var spilled: [Element] = []
    private(set) var count = 0

    init(_ inline: UnsafeMutableBufferPointer<Element>) { self.inline = inline }

    subscript(position: Int) -> Element {
        position < inline.count ? inline[position] : spilled[position - inline.count]
    }

    mutating func push(_ element: Element) {
        if count < inline.count {
            (inline.baseAddress.unsafelyUnwrapped + count).initialize(to: element)
        } else {
            spilled.append(element)
        }
        count += 1
    }

    /// Drops the newest element (the stack must not be empty).
    mutating func pop() { truncate(to: count - 1) }

    /// Keeps the first `newCount` elements.
    mutating func truncate(to newCount: Int) {
        count = newCount
        if !spilled.isEmpty { spilled.removeSubrange(max(0, newCount - inline.count)...) }
    }
}

/// The keys of the objects the skipper is inside, innermost last, kept as
/// byte ranges in one flat stack so that skipping allocates nothing per object.
struct OpenObjectKeys {
    typealias Outer = (start: Int, mask: UInt64)

    private var keys: ScratchStack<Range<Int>>
    /// The outer objects' key starts and masks; the innermost object's are
    /// in `start` and `mask`, so the common case touches only `keys`.
    private var outer: ScratchStack<Outer>
    private var start = 0
    /// A 64-bit mask of cheap key hashes of the innermost object: a key whose
    /// bit is clear is new without any comparison; only a collision (or an
    /// escaped key) compares bytes.
    private var mask: UInt64 = 0

    init(keys: ScratchStack<Range<Int>>, outer: ScratchStack<Outer>) {
        self.keys = keys
        self.outer = outer
    }

    mutating func open() {
        outer.push((start, mask))
        start = keys.count
        mask = 0
    }

    mutating func close() {
        keys.truncate(to: start)
        if outer.count > 0 {
            (start, mask) = outer[outer.count - 1]
            outer.pop()
        }
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
        keys.push(range)
    }

    private func compare(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) throws {
        for k in start..<keys.count where Self.same(keys[k], range, in: bytes) {
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

extension JSONReader {
    /// Skips a task's heads or live changes when they are in the form pm
    /// writes them, `{"key": ["id", …], …}` (plain keys in ascending order,
    /// so none twice) or `["id", …]`, each id 36 plain bytes, with a loop
    /// that only compares bytes; returns false, the reader unmoved, on
    /// anything else, which ``skipValueFast()`` then checks in full. This
    /// runs twice per task on every read of a board.
    mutating func skipIDListsFast() -> Bool {
        var at = index
        let n = bytes.count
        guard at < n else { return false }
        if bytes[at] == UInt8(ascii: "[") {
            guard skipIDArray(&at) else { return false }
            index = at
            return true
        }
        guard bytes[at] == UInt8(ascii: "{") else { return false }
        at += 1
        guard at < n else { return false }
        if bytes[at] == UInt8(ascii: "}") {
            index = at + 1
            return true
        }
        var previous: Range<Int>? = nil
        while true {
            // "key": [ids]
            guard at < n, bytes[at] == UInt8(ascii: "\"") else { return false }
            let keyStart = at + 1
            at = keyStart
            // A key may name a person or a label in any script (`assignee/지우`):
            // its bytes were checked as UTF-8 with the whole file's.
            while at < n, Self.isPlainIDByte(bytes[at]) || bytes[at] >= 0x80 { at += 1 }
            guard at + 2 < n, bytes[at] == UInt8(ascii: "\""), bytes[at + 1] == UInt8(ascii: ":"),
                bytes[at + 2] == UInt8(ascii: " ")
            else { return false }
            let key = keyStart..<at
            if let previous, !bytes[previous].lexicographicallyPrecedes(bytes[key]) { return false }
            previous = key
            at += 3
            guard skipIDArray(&at), at < n else { return false }
            if bytes[at] == UInt8(ascii: "}") {
                index = at + 1
                return true
            }
            guard at + 1 < n, bytes[at] == UInt8(ascii: ","), bytes[at + 1] == UInt8(ascii: " ") else { return false }
            at += 2
        }
    }

    /// `["id", …]` at `at`, each id 36 plain bytes, `, ` between them.
    private func skipIDArray(_ at: inout Int) -> Bool {
        let n = bytes.count
        guard at < n, bytes[at] == UInt8(ascii: "[") else { return false }
        at += 1
        if at < n, bytes[at] == UInt8(ascii: "]") {
            at += 1
            return true
        }
        while true {
            guard at + 38 <= n, bytes[at] == UInt8(ascii: "\""), bytes[at + 37] == UInt8(ascii: "\"") else { return false }
            guard Self.arePlain36(bytes.baseAddress.unsafelyUnwrapped + at + 1) else { return false }
            at += 38
            guard at < n else { return false }
            if bytes[at] == UInt8(ascii: "]") {
                at += 1
                return true
            }
            guard at + 1 < n, bytes[at] == UInt8(ascii: ","), bytes[at + 1] == UInt8(ascii: " ") else { return false }
            at += 2
        }
    }

    /// Whether the 36 bytes at `start` are all ``isPlainIDByte(_:)``, eight
    /// at a time (the last eight overlap).
    @inline(__always)
    private static func arePlain36(_ start: UnsafePointer<UInt8>) -> Bool {
        let raw = UnsafeRawPointer(start)
        var bad: UInt64 = 0
        for offset in [0, 8, 16, 24, 28] { bad |= notPlain(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        return bad == 0
    }

    /// Nonzero when one of the eight bytes of `word` is not plain: below
    /// 0x20, 0x7F or above, a quote or a backslash.
    @inline(__always)
    private static func notPlain(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ v: UInt64) -> UInt64 { (v &- ones) & ~v & high }
        let below = (word &- 0x2020_2020_2020_2020) & ~word & high
        return below | (word & high) | hasZero(word ^ 0x7F7F_7F7F_7F7F_7F7F) | hasZero(word ^ 0x2222_2222_2222_2222)
            | hasZero(word ^ 0x5C5C_5C5C_5C5C_5C5C)
    }

    /// Printable ASCII that needs no escape in a JSON string.
    @inline(__always)
    private static func isPlainIDByte(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }
}
