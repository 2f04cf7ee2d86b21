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
    }

    /// Why a message cannot be used.
    public enum Problem: Error, Equatable, Sendable {
        /// A `%` sequence pm does not accept, such as `%n`, `%s` or `%f`.
        case unsupportedSpecifier(String)
        /// Two placeholders claim one position with different types, or a position is skipped.
        case inconsistentPositions
    }

    let pieces: [Piece]
    /// The placeholder types by position (index 0 is `%1$`).
    public let signature: [PlaceholderType]

    /// Parses `text`, or throws ``Problem``.
    public init(parsing text: String) throws {
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
        let count = types.keys.max() ?? 0
        var signature: [PlaceholderType] = []
        for position in 0..<count {
            guard let type = types[position + 1] else { throw Problem.inconsistentPositions }
            signature.append(type)
        }
        self.pieces = pieces
        self.signature = signature
    }

    private static func digit(_ c: Unicode.Scalar) -> Int? {
        c.value >= 0x30 && c.value <= 0x39 ? Int(c.value - 0x30) : nil
    }

    /// Fills the placeholders. Arguments must match ``signature``; a missing
    /// or mistyped argument is rendered as its description, never crashes.
    public func render(_ arguments: [MessageArgument]) -> String {
        var result = ""
        for piece in pieces {
            switch piece {
            case .literal(let text):
                result += text
            case .placeholder(let index, _):
                guard index - 1 < arguments.count else { continue }
                switch arguments[index - 1] {
                case .text(let text): result += text
                case .number(let number): result += String(number)
                }
            }
        }
        return result
    }

    /// The pseudo-locale form (`en_XA`): letters accented, text lengthened by
    /// about 40% and bracketed, placeholders untouched. Hard-coded strings
    /// stand out as plain English, and truncation bugs as lost brackets.
    public func pseudoLocalized() -> MessageFormat {
        var letters = 0
        var mapped: [Piece] = pieces.map { piece in
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
        mapped.insert(.literal("["), at: 0)
        mapped.append(.literal(" " + String(repeating: "~", count: max(1, letters * 2 / 5)) + "]"))
        return MessageFormat(pieces: mapped, signature: signature)
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
