/// The state machine behind ``StringsTableParser``.
struct StringsScanner {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var entries: [StringsTableEntry] = []
    private var problems: [StringsTableProblem] = []
    private var firstLineOfKey: [String: Int] = [:]
    /// The last block comment, and the line it ended on: an entry on the
    /// next line (or the same) takes it as its note for translators.
    private var lastComment: (text: String, endLine: Int)?

    init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    private struct Failure: Error {
        var line: Int
        var kind: StringsTableProblem.Kind
    }

    mutating func run() -> ParsedStringsTable {
        while true {
            do {
                try skipTrivia()
                guard index < scalars.count else { break }
                try parseEntry()
            } catch let failure as Failure {
                problems.append(.init(line: failure.line, kind: failure.kind))
                if case .unterminatedComment = failure.kind { break }
                if case .unterminatedString = failure.kind { break }
                // A missing `;` is noticed at the next entry's quote: resume there.
                if case .missingSemicolon = failure.kind { continue }
                skipRestOfLine()
            } catch {
                break
            }
        }
        return ParsedStringsTable(entries: entries, problems: problems)
    }

    private mutating func parseEntry() throws {
        let keyLine = line
        guard peek == "\"" else { throw Failure(line: line, kind: .expectedKey) }
        let key = try parseString()
        try skipTrivia()
        guard peek == "=" else { throw Failure(line: line, kind: .missingEquals) }
        advance()
        try skipTrivia()
        guard peek == "\"" else { throw Failure(line: line, kind: .expectedValue) }
        let value = try parseString()
        let afterValueLine = line
        try skipTrivia()
        guard peek == ";" else { throw Failure(line: afterValueLine, kind: .missingSemicolon) }
        advance()
        if let first = firstLineOfKey[key] {
            problems.append(.init(line: keyLine, kind: .duplicateKey(key, firstLine: first)))
        } else {
            firstLineOfKey[key] = keyLine
            let comment = lastComment.flatMap { keyLine - $0.endLine <= 1 ? $0.text : nil }
            entries.append(StringsTableEntry(key: key, value: value, line: keyLine, comment: comment))
        }
    }

    private var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private mutating func advance() {
        if scalars[index] == "\n" { line += 1 }
        index += 1
    }

    private mutating func skipRestOfLine() {
        while let c = peek, c != "\n" { advance() }
    }

    private mutating func skipTrivia() throws {
        while let c = peek {
            if c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{FEFF}" {
                advance()
            } else if c == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                let start = line
                advance()
                advance()
                let from = index
                var closed = false
                while let d = peek {
                    if d == "*", index + 1 < scalars.count, scalars[index + 1] == "/" {
                        let text = String(String.UnicodeScalarView(scalars[from..<index]))
                        lastComment = (text.trimmingSpaces, line)
                        advance()
                        advance()
                        closed = true
                        break
                    }
                    advance()
                }
                if !closed { throw Failure(line: start, kind: .unterminatedComment) }
            } else if c == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
                skipRestOfLine()
            } else {
                return
            }
        }
    }

    private mutating func parseString() throws -> String {
        let start = line
        advance()  // opening quote
        var result = UTF8Buffer()
        while let c = peek {
            switch c {
            case "\"":
                advance()
                return String(decoding: result.bytes, as: UTF8.self)
            case "\\":
                advance()
                try parseEscape(into: &result)
            default:
                result.append(c)
                advance()
            }
        }
        throw Failure(line: start, kind: .unterminatedString)
    }

    private mutating func parseEscape(into result: inout UTF8Buffer) throws {
        guard let c = peek else { throw Failure(line: line, kind: .unterminatedString) }
        switch c {
        case "\"":
            result.append("\"")
            advance()
        case "\\":
            result.append("\\")
            advance()
        case "n":
            result.append("\n")
            advance()
        case "t":
            result.append("\t")
            advance()
        case "r":
            result.append("\r")
            advance()
        case "'":
            result.append("'")
            advance()
        case "U", "u":
            advance()
            let high = try hex4(after: c)
            if (0xD800...0xDBFF).contains(high) {
                guard peek == "\\", index + 1 < scalars.count, scalars[index + 1] == "U" || scalars[index + 1] == "u"
                else { throw Failure(line: line, kind: .badEscape("\\\(c)\(String(high, radix: 16, uppercase: true))")) }
                let marker = scalars[index + 1]
                advance()
                advance()
                let low = try hex4(after: marker)
                guard (0xDC00...0xDFFF).contains(low),
                    let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                else { throw Failure(line: line, kind: .badEscape("\\\(marker)\(String(low, radix: 16, uppercase: true))")) }
                result.append(scalar)
            } else if let scalar = Unicode.Scalar(high) {
                result.append(scalar)
            } else {
                throw Failure(line: line, kind: .badEscape("\\\(c)\(String(high, radix: 16, uppercase: true))"))
            }
        default:
            throw Failure(line: line, kind: .badEscape("\\\(c)"))
        }
    }

    private mutating func hex4(after marker: Unicode.Scalar) throws -> UInt32 {
        var value: UInt32 = 0
        var digits = ""
        for _ in 0..<4 {
            guard let c = peek, let digit = hexValue(c) else {
                throw Failure(line: line, kind: .badEscape("\\\(marker)\(digits)"))
            }
            digits.unicodeScalars.append(c)
            value = value << 4 | digit
            advance()
        }
        return value
    }

    private func hexValue(_ c: Unicode.Scalar) -> UInt32? {
        switch c.value {
        case 0x30...0x39: return c.value - 0x30
        case 0x41...0x46: return c.value - 0x41 + 10
        case 0x61...0x66: return c.value - 0x61 + 10
        default: return nil
        }
    }
}

/// A string being built, as UTF-8 bytes: appending to a `String` a code
/// point at a time costs several times more.
struct UTF8Buffer {
    var bytes: [UInt8] = []

    mutating func append(_ scalar: Unicode.Scalar) {
        if scalar.isASCII {
            bytes.append(UInt8(truncatingIfNeeded: scalar.value))
        } else {
            UTF8.encode(scalar) { bytes.append($0) }
        }
    }
}

extension String {
    /// Without the spaces, tabs and line breaks at either end.
    package var trimmingSpaces: String {
        let scalars = Array(unicodeScalars)
        let isSpace = { (scalar: Unicode.Scalar) in scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
