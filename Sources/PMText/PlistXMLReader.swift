/// The XML of a plist, read into elements: names, text, children, lines.
struct XMLReader {
    struct Element {
        var name: String
        var text = ""
        var children: [Element] = []
        var line: Int
        /// The `<!-- … -->` right before it (only space between), without its markers.
        var comment: String?
    }

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private(set) var line = 1
    /// plist > dict > entry dict > variable dict > string: deeper is not a plural table.
    private static let depthLimit = 6

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    private func fail(_ what: String) -> StringsDictProblem { StringsDictProblem(line: line, kind: .malformed(what)) }

    mutating func document() throws -> Element {
        try skipProlog()
        guard peek("<") else { throw fail("<plist>") }
        let root = try element(depth: 0)
        try skipMisc()
        guard index == scalars.count else { throw fail("end of file") }
        return root
    }

    private func peek(_ text: String) -> Bool {
        var at = index
        for scalar in text.unicodeScalars {
            guard at < scalars.count, scalars[at] == scalar else { return false }
            at += 1
        }
        return true
    }

    private mutating func advance(_ count: Int = 1) {
        for _ in 0..<count where index < scalars.count {
            if scalars[index] == "\n" { line += 1 }
            index += 1
        }
    }

    private mutating func skip(until end: String) throws {
        while index < scalars.count, !peek(end) { advance() }
        guard peek(end) else { throw fail(end) }
        advance(end.unicodeScalars.count)
    }

    private mutating func skipSpace() {
        while index < scalars.count, [" ", "\n", "\t", "\r"].contains(scalars[index]) { advance() }
    }

    /// Whitespace and comments.
    private mutating func skipMisc() throws {
        while true {
            skipSpace()
            guard peek("<!--") else { return }
            try skip(until: "-->")
        }
    }

    /// The XML declaration, comments, and a DOCTYPE without an internal subset.
    private mutating func skipProlog() throws {
        try skipMisc()
        if peek("<?xml") { try skip(until: "?>") }
        try skipMisc()
        if peek("<!DOCTYPE") {
            while index < scalars.count, scalars[index] != ">" {
                if scalars[index] == "[" { throw StringsDictProblem(line: line, kind: .internalSubset) }
                advance()
            }
            try skip(until: ">")
        }
        try skipMisc()
    }

    private mutating func name() throws -> String {
        var result = ""
        while index < scalars.count, scalars[index].properties.isAlphabetic || scalars[index] == "_" {
            result.unicodeScalars.append(scalars[index])
            advance()
        }
        guard !result.isEmpty else { throw fail("a name") }
        return result
    }

    private mutating func element(depth: Int) throws -> Element {
        guard depth < Self.depthLimit else { throw fail("less nesting") }
        let start = line
        advance()  // <
        let tag = try name()
        // Attributes (plist's version) are skipped; a value may not hold `>`.
        while index < scalars.count, scalars[index] != ">", !peek("/>") {
            if scalars[index] == "<" { throw fail(">") }
            advance()
        }
        if peek("/>") {
            advance(2)
            return Element(name: tag, line: start)
        }
        guard peek(">") else { throw fail(">") }
        advance()
        var element = Element(name: tag, line: start)
        var comment: String?
        while true {
            if peek("</") {
                advance(2)
                guard try name() == tag else { throw fail("</\(tag)>") }
                skipSpace()
                guard peek(">") else { throw fail(">") }
                advance()
                return element
            }
            if peek("<!--") {
                advance(4)
                let from = index
                try skip(until: "-->")
                comment = String(String.UnicodeScalarView(scalars[from..<(index - 3)])).trimmingSpaces
            } else if peek("<![CDATA[") {
                advance(9)
                let from = index
                try skip(until: "]]>")
                element.text.unicodeScalars.append(contentsOf: scalars[from..<(index - 3)])
            } else if peek("<") {
                var child = try self.element(depth: depth + 1)
                child.comment = comment
                comment = nil
                element.children.append(child)
            } else if peek("&") {
                element.text.unicodeScalars.append(try entity())
                comment = nil
            } else if index < scalars.count {
                if ![" ", "\n", "\t", "\r"].contains(scalars[index]) { comment = nil }
                element.text.unicodeScalars.append(scalars[index])
                advance()
            } else {
                throw fail("</\(tag)>")
            }
        }
    }

    /// `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` `&#233;` `&#xE9;`.
    private mutating func entity() throws -> Unicode.Scalar {
        advance()
        var body = ""
        while index < scalars.count, scalars[index] != ";", body.unicodeScalars.count < 10 {
            body.unicodeScalars.append(scalars[index])
            advance()
        }
        guard peek(";") else { throw StringsDictProblem(line: line, kind: .unknownEntity(body)) }
        advance()
        switch body {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default: break
        }
        let number: UInt32?
        if body.hasPrefix("#x") {
            number = UInt32(body.dropFirst(2), radix: 16)
        } else if body.hasPrefix("#") {
            number = UInt32(body.dropFirst(), radix: 10)
        } else {
            number = nil
        }
        guard let number, let scalar = Unicode.Scalar(number), number != 0 else {
            throw StringsDictProblem(line: line, kind: .unknownEntity(body))
        }
        return scalar
    }
}
