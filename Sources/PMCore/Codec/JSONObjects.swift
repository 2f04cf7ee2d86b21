#if canImport(Glibc)
    import Glibc
#endif

/// Reading JSON objects key by key: each key once, known keys found without
/// making a string of them.
extension JSONReader {
    /// Reads an object, calling `field` once per key with the reader at its
    /// value (which `field` must consume). A key named twice is refused.
    mutating func readObject(_ field: (String, inout JSONReader) throws -> Void) throws {
        var keys = KeySet()
        try beginObject()
        var first = true
        while let key = try nextKey(first: &first) {
            try keys.insert(key, self)
            try field(key, &self)
        }
    }
}

/// The keys an object is expected to have, matched on the file's bytes
/// without making a string of each key.
struct KnownKeys {
    let names: [String]
    private let bytes: [[UInt8]]

    init(_ names: [String]) {
        precondition(names.count <= 64)
        self.names = names
        bytes = names.map { Array($0.utf8) }
    }

    /// Which known key the bytes are, if any.
    func index(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        for (position, name) in bytes.enumerated() where name.count == key.count {
            if name.withUnsafeBufferPointer({ memcmp($0.baseAddress!, key.baseAddress!, key.count) == 0 }) {
                return position
            }
        }
        return nil
    }
}

extension JSONReader {
    /// Reads an object whose usual keys are `known`: `field` is called once
    /// per key with the known key's position (or nil and the key, for any
    /// other), the reader at its value, which `field` must consume. A key
    /// named twice is refused, as ``readObject(_:)`` does.
    mutating func readObject(known: KnownKeys, _ field: (Int?, String, inout JSONReader) throws -> Void) throws {
        var seen: UInt64 = 0
        var others = KeySet()
        try beginObject()
        var first = true
        while try atNextKey(first: &first) {
            // A plain key (no escape) is matched on its bytes.
            var end = index + 1
            while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 {
                end += 1
            }
            var position: Int?
            var name: String
            if end < bytes.count, bytes[end] == UInt8(ascii: "\""),
                let match = known.index(of: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end]))
            {
                position = match
                name = known.names[match]
                index = end + 1
            } else {
                name = try readString()
                position = known.names.firstIndex(of: name)
            }
            try expect(UInt8(ascii: ":"))
            if let position {
                let bit: UInt64 = 1 << UInt64(position)
                if seen & bit != 0 { throw Failure(offset: keyStart, reason: .duplicateKey(name)) }
                seen |= bit
            } else {
                try others.insert(name, self)
            }
            try field(position, name, &self)
        }
    }
}

/// The keys of one object read so far: a key named twice is refused
/// (RELIABILITY.md: never keep one of two values silently).
struct KeySet {
    /// The usual few keys, compared in a list; past ``listLimit`` a set
    /// (an object from elsewhere may have any number of keys: a list made
    /// reading it quadratic).
    private var keys: [String] = []
    private var many: Set<String>?
    private static let listLimit = 16

    /// Adds the key `reader` just read, or throws if the object had it already.
    mutating func insert(_ key: String, _ reader: JSONReader) throws {
        if many == nil, keys.count >= Self.listLimit { (many, keys) = (Set(keys), []) }
        let isNew = many != nil ? many!.insert(key).inserted : !keys.contains(key)
        if !isNew { throw JSONReader.Failure(offset: reader.keyStart, reason: .duplicateKey(key)) }
        if many == nil { keys.append(key) }
    }
}
