/// One problem found in a `.strings` table, with the line it is on.
public struct StringsTableProblem: Equatable, Sendable {
    /// What is wrong.
    public enum Kind: Equatable, Sendable {
        case wrongEncoding(byteOffset: Int)
        case unterminatedComment
        case unterminatedString
        case expectedKey
        case missingEquals
        case missingSemicolon
        case expectedValue
        case badEscape(String)
        case duplicateKey(String, firstLine: Int)
    }

    /// 1-based line number.
    public var line: Int
    /// What is wrong there.
    public var kind: Kind

    public init(line: Int, kind: Kind) {
        self.line = line
        self.kind = kind
    }
}

/// One `"key" = "value";` entry of a table.
public struct StringsTableEntry: Equatable, Sendable {
    public var key: String
    public var value: String
    /// 1-based line of the key.
    public var line: Int
    /// The `/* … */` comment right above it (no blank line between), without
    /// its markers: the note for translators.
    public var comment: String? = nil
}

/// The result of parsing a table: every good entry and every problem.
public struct ParsedStringsTable: Sendable {
    /// Entries in file order; a duplicate key keeps its first entry only.
    public var entries: [StringsTableEntry]
    /// Problems in file order.
    public var problems: [StringsTableProblem]

    /// The entries as a dictionary.
    public var values: [String: String] {
        var result: [String: String] = [:]
        for entry in entries { result[entry.key] = entry.value }
        return result
    }
}

/// A strict parser of Apple's `.strings` format, in pure Swift.
///
/// Unlike Foundation's parser, which drops a whole table (or every later
/// entry) on one mistake without a word, this one reports every problem with
/// its line and keeps every entry it could read: after an error it resumes at
/// the next line.
public enum StringsTableParser {
    /// Parses raw file bytes: UTF-8 with or without BOM, or UTF-16 with a BOM.
    public static func parse(bytes: [UInt8]) -> ParsedStringsTable {
        switch decode(bytes) {
        case .success(let text):
            return parse(text: text)
        case .failure(let offset):
            let line = 1 + bytes.prefix(offset).filter { $0 == 0x0A }.count
            return ParsedStringsTable(entries: [], problems: [.init(line: line, kind: .wrongEncoding(byteOffset: offset))])
        }
    }

    enum Decoded {
        case success(String)
        case failure(Int)
    }

    static func decode(_ bytes: [UInt8]) -> Decoded {
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE {
            return decodeUTF16(bytes.dropFirst(2), littleEndian: true)
        }
        if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF {
            return decodeUTF16(bytes.dropFirst(2), littleEndian: false)
        }
        var body = bytes[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { body = bytes.dropFirst(3) }
        if let offset = UTF8Validation.firstInvalidOffset(in: body) {
            return .failure(offset + (bytes.count - body.count))
        }
        return .success(String(decoding: body, as: UTF8.self))
    }

    static func decodeUTF16(_ bytes: ArraySlice<UInt8>, littleEndian: Bool) -> Decoded {
        guard bytes.count % 2 == 0 else { return .failure(bytes.endIndex - 1) }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let a = UInt16(bytes[index])
            let b = UInt16(bytes[index + 1])
            units.append(littleEndian ? (b << 8 | a) : (a << 8 | b))
            index += 2
        }
        var result = ""
        var iterator = units.makeIterator()
        var decoder = UTF16()
        var unitOffset = 0
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                result.unicodeScalars.append(scalar)
                unitOffset += scalar.value > 0xFFFF ? 2 : 1
            case .emptyInput:
                break loop
            case .error:
                return .failure(bytes.startIndex + unitOffset * 2)
            }
        }
        return .success(result)
    }

    /// Parses already decoded text.
    public static func parse(text: String) -> ParsedStringsTable {
        var scanner = StringsScanner(Array(text.unicodeScalars))
        return scanner.run()
    }
}
