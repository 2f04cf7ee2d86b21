/// An argument to a localized message.
public enum MessageArgument: Sendable, Equatable {
    case text(String)
    case number(Int)
}

/// The type of one placeholder: `%@` takes text, `%d`/`%ld` a number.
public enum PlaceholderType: Sendable, Equatable {
    case text, number
}

/// A parsed message: literal pieces and typed, positional placeholders.
///
/// pm never hands a table value to `String(format:)`, which crashes or prints
/// garbage when a translation's specifiers differ from the arguments (L10N.md
/// fact 5). Only `%@`, `%d`, `%i`, `%u`, `%ld`, `%lld`, their positional
/// forms `%1$@`, and `%%` are accepted; anything else makes the message
/// invalid, and the localizer then falls back to English.
public struct MessageFormat: Sendable, Equatable {
    enum Piece: Sendable, Equatable {
        case literal(String)
        case placeholder(index: Int, type: PlaceholderType)
        /// A Korean particle, in the form the preceding inserted word takes.
        case particle(Grammar.Particle)
        /// A French word elided before an inserted word opening with a vowel.
        case elision(String)
    }

    /// Why a message cannot be used.
    public enum Problem: Error, Equatable, Sendable {
        /// A `%` sequence pm does not accept, such as `%n`, `%s` or `%f`.
        case unsupportedSpecifier(String)
        /// Two placeholders claim one position with different types, or a position is skipped.
        case inconsistentPositions
        /// A particle or elision notation that is unknown, unclosed, or not
        /// next to a placeholder (the fragment as written).
        case badGrammar(String)
    }

    let pieces: [Piece]
    /// The placeholder types by position (index 0 is `%1$`).
    public let signature: [PlaceholderType]

    /// Parses `text`, or throws ``Problem``. A plural form may leave out the
    /// count (`%1$d`) when `countMayBeOmitted` (the French `one` of "il
    /// reste une tâche"): its signature still takes it, so that it matches
    /// the forms that show it, and ``omitsCount`` says so.
    /// `elisions` are the words the table declares elidable before a vowel
    /// (`grammar.elisions`: French `de`, `le`, `que`…); `{word}` is refused
    /// for any other, so a misspelt notation is found, never printed.
    public init(parsing text: String, countMayBeOmitted: Bool = false, elisions: Set<String> = []) throws {
        var pieces: [Piece] = []
        var literal = ""
        var types: [Int: PlaceholderType] = [:]
        var nextSequential = 1
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            guard c == "%" else {
                literal.unicodeScalars.append(c)
                i += 1
                continue
            }
            let start = i
            i += 1
            if i < scalars.count, scalars[i] == "%" {
                literal.append("%")
                i += 1
                continue
            }
            let (position, type) = try Self.specifier(scalars, at: &i, start: start)
            let index: Int
            if let position {
                index = position
            } else {
                index = nextSequential
                nextSequential += 1
            }
            if let existing = types[index], existing != type { throw Problem.inconsistentPositions }
            types[index] = type
            if !literal.isEmpty {
                pieces.append(.literal(literal))
                literal = ""
            }
            pieces.append(.placeholder(index: index, type: type))
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        pieces = try Self.resolvingGrammar(pieces, elisions: elisions)
        self.pieces = pieces
        if countMayBeOmitted, types[1] == nil { types[1] = .number }
        self.signature = try Self.signature(of: types)
    }

    /// The format written back as a table value: `%%` for a percent sign,
    /// placeholders by position (`%1$@`), grammar notations as written.
    public var tableText: String {
        pieces.map { piece in
            switch piece {
            case .literal(let text): text.replacingAll("%", with: "%%")
            case .placeholder(let index, let type): "%\(index)$" + (type == .text ? "@" : "d")
            case .particle(let particle): particle.notation
            case .elision(let word): "{\(word)} "
            }
        }.joined()
    }

    /// Whether it says nothing at all.
    public var isEmpty: Bool { pieces.isEmpty }

    /// Whether no placeholder shows the first argument (a plural form that
    /// says "one task" where the others say "%1$d tasks").
    public var omitsCount: Bool {
        !pieces.contains { piece in
            if case .placeholder(index: 1, _) = piece { return true }
            return false
        }
    }

    /// The specifier after a `%` at `start` (`i` just past the `%`): its
    /// position when it names one (`%2$@`) and its type; `i` ends past it.
    private static func specifier(
        _ scalars: [Unicode.Scalar], at i: inout Int, start: Int
    ) throws -> (position: Int?, type: PlaceholderType) {
        var position: Int?
        var digits = 0
        var j = i
        while j < scalars.count, let d = Self.digit(scalars[j]) {
            digits = digits * 10 + d
            j += 1
            if digits > 99 { break }
        }
        if j > i, j < scalars.count, scalars[j] == "$", digits > 0 {
            position = digits
            i = j + 1
        }
        var lengthModifiers = 0
        while i < scalars.count, scalars[i] == "l", lengthModifiers < 2 {
            lengthModifiers += 1
            i += 1
        }
        guard i < scalars.count else {
            throw Problem.unsupportedSpecifier(String(String.UnicodeScalarView(scalars[start..<i])))
        }
        let type: PlaceholderType
        switch scalars[i] {
        case "@" where lengthModifiers == 0: type = .text
        case "d", "i", "u": type = .number
        default:
            throw Problem.unsupportedSpecifier(String(String.UnicodeScalarView(scalars[start...i])))
        }
        i += 1
        return (position, type)
    }

    /// The placeholder types in position order; a position skipped is refused.
    private static func signature(of types: [Int: PlaceholderType]) throws -> [PlaceholderType] {
        let count = types.keys.max() ?? 0
        var signature: [PlaceholderType] = []
        for position in 0..<count {
            guard let type = types[position + 1] else { throw Problem.inconsistentPositions }
            signature.append(type)
        }
        return signature
    }

    /// Splits particle and elision notations out of the literals, and throws
    /// ``Problem/badGrammar(_:)`` for one that is malformed or misplaced.
    private static func resolvingGrammar(_ pieces: [Piece], elisions: Set<String>) throws -> [Piece] {
        var result: [Piece] = []
        for (offset, piece) in pieces.enumerated() {
            guard case .literal(var text) = piece else {
                result.append(piece)
                continue
            }
            var before: [Piece] = []
            if offset > 0, case .placeholder = pieces[offset - 1] {
                // `'%1$@'을(를)`: closing marks, then the particle.
                let marks = text.prefix { Grammar.closingMarks.contains($0) }
                if let particle = Grammar.particle(startingAt: text.dropFirst(marks.count)) {
                    if !marks.isEmpty { before.append(.literal(String(marks))) }
                    before.append(.particle(particle))
                    text = String(text.dropFirst(marks.count + particle.notation.count))
                }
            }
            var after: [Piece] = []
            if offset + 1 < pieces.count, case .placeholder = pieces[offset + 1],
                let open = text.lastIndex(of: "{"), text.hasSuffix("} ")
            {
                let word = String(text[text.index(after: open)..<text.index(text.endIndex, offsetBy: -2)])
                guard elisions.contains(word.lowercased()) else { throw Problem.badGrammar("{\(word)}") }
                after = [.elision(word)]
                text = String(text[..<open])
            }
            try checkNoStrayNotation(text)
            result += before
            if !text.isEmpty { result.append(.literal(text)) }
            result += after
        }
        return result
    }

    /// A notation left in plain text is one the localizer would print as is.
    private static func checkNoStrayNotation(_ text: String) throws {
        // Byte scans first: most literals hold no brace and no parenthesis
        // (Foundation's `contains` on strings would cost far more).
        let utf8 = text.utf8
        if let open = utf8.firstIndex(of: UInt8(ascii: "{")) {
            throw Problem.badGrammar(String(text[open...].prefix(12)))
        }
        if utf8.contains(UInt8(ascii: "}")) { throw Problem.badGrammar("}") }
        guard utf8.contains(UInt8(ascii: "(")) else { return }
        // `(` glued to the word before it and opening on a particle syllable:
        // a particle notation that is unknown, unclosed or not after a placeholder.
        let characters = Array(text)
        for (index, character) in characters.enumerated() where character == "(" {
            var run = index + 1
            while run < characters.count, run - index <= 3,
                characters[run].unicodeScalars.allSatisfy({ (0xAC00...0xD7A3).contains($0.value) })
            {
                run += 1
            }
            let syllables = characters[(index + 1)..<run]
            guard (1...2).contains(syllables.count), syllables.allSatisfy(particleSyllables.contains) else { continue }
            let glued = index == 0 || !characters[index - 1].isWhitespace
            if glued {
                let start = max(0, index - 2)
                throw Problem.badGrammar(String(characters[start..<min(characters.count, index + 4)]))
            }
        }
    }

    private static let particleSyllables: Set<Character> = Set("을를이가은는과와아야으로나라랑며고에요었다")

    private static func digit(_ c: Unicode.Scalar) -> Int? {
        c.value >= 0x30 && c.value <= 0x39 ? Int(c.value - 0x30) : nil
    }

    /// Fills the placeholders. Arguments must match ``signature``; a missing
    /// or mistyped argument is rendered as its description, never crashes.
    /// - Parameter number: how a number is written (the reader's language
    ///   groups thousands: `1 200` in French).
    public func render(_ arguments: [MessageArgument], number: (Int) -> String = { String($0) }) -> String {
        var result = ""
        var inserted = ""
        func argument(_ index: Int) -> String? {
            guard index >= 1, index - 1 < arguments.count else { return nil }
            switch arguments[index - 1] {
            case .text(let text): return text
            case .number(let value): return number(value)
            }
        }
        for (offset, piece) in pieces.enumerated() {
            switch piece {
            case .literal(let text):
                result += text
            case .placeholder(let index, _):
                inserted = argument(index) ?? ""
                result += inserted
            case .particle(let particle):
                result += particle.form(after: Grammar.finalSound(of: inserted))
            case .elision(let word):
                var next = ""
                if offset + 1 < pieces.count, case .placeholder(let index, _) = pieces[offset + 1] {
                    next = argument(index) ?? ""
                }
                result += Grammar.beginsWithVowel(next) ? Grammar.elided(word) : word + " "
            }
        }
        return result
    }

    /// The pseudo-locale form (`en_XA`): letters accented, text lengthened by
    /// about 40% and bracketed, placeholders untouched. Hard-coded strings
    /// stand out as plain English, and truncation bugs as lost brackets.
    public func pseudoLocalized() -> MessageFormat {
        let (accented, letters) = accentedPieces()
        var mapped = accented
        mapped.insert(.literal("["), at: 0)
        mapped.append(.literal(" " + String(repeating: "~", count: max(1, letters * 2 / 5)) + "]"))
        return MessageFormat(pieces: mapped, signature: signature)
    }

    /// Its letters accented, nothing added (a word people type, in the pseudo-language).
    public func accentedLetters() -> MessageFormat {
        MessageFormat(pieces: accentedPieces().0, signature: signature)
    }

    private func accentedPieces() -> ([Piece], Int) {
        var letters = 0
        let mapped: [Piece] = pieces.map { piece in
            guard case .literal(let text) = piece else { return piece }
            var result = ""
            for scalar in text.unicodeScalars {
                if let accented = Self.accents[scalar] {
                    result.unicodeScalars.append(accented)
                    letters += 1
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
            return .literal(result)
        }
        return (mapped, letters)
    }

    private init(pieces: [Piece], signature: [PlaceholderType]) {
        self.pieces = pieces
        self.signature = signature
    }

    private static let accents: [Unicode.Scalar: Unicode.Scalar] = {
        let plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
        let fancy = "áƀçðéƒĝĥíĵķļɱñöþǫŕšţüṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ"
        var map: [Unicode.Scalar: Unicode.Scalar] = [:]
        for (a, b) in zip(plain.unicodeScalars, fancy.unicodeScalars) { map[a] = b }
        return map
    }()
}
