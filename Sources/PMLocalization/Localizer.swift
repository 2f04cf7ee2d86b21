import PMICU

/// Turns message keys into text in the reader's language.
///
/// Lookup is per key: each language of the chain in turn (the translator's
/// table before the built-in one), then English. A translated value whose
/// placeholders differ from English is skipped, so a hostile table can never
/// crash pm or print raw specifiers.
public final class Localizer: Sendable {
    private struct Layer: Sendable {
        var language: String
        var values: TableValues
    }

    private let layers: [Layer]
    private let english: [Layer]
    /// `en_XA`: English, accented and lengthened, to find hard-coded text and truncation bugs.
    private let pseudo: Bool
    /// The language most messages come from: the first of the chain with a table, else `en`.
    public let language: String

    /// Builds a localizer for `chain`, reading tables from `source`.
    public init(chain: LanguageChain, source: TableSource = TableSource()) {
        var layers: [Layer] = []
        for candidate in chain.candidates where candidate != "en" && !candidate.hasPrefix("en_") {
            for values in source.tables(for: candidate) {
                layers.append(Layer(language: candidate, values: values))
            }
        }
        self.layers = layers
        self.english = source.tables(for: "en").map { Layer(language: "en", values: $0) }
        self.pseudo = chain.candidates.first { $0.hasPrefix("en") } == "en_XA"
        self.language = pseudo ? "en_XA" : layers.first?.language ?? "en"
    }

    /// The resolved message format of `key`, for rendering it many times.
    public func format(_ key: L10nKey) -> MessageFormat? {
        let reference = englishFormat(key.rawValue)
        for layer in layers + english {
            if let text = layer.values[key.rawValue], let format = usable(text, reference: reference) {
                return styled(format, layer)
            }
        }
        return nil
    }

    /// The message for `key`, with its placeholders filled.
    public func string(_ key: L10nKey, _ arguments: MessageArgument...) -> String {
        lookup(key.rawValue, arguments)
    }

    /// A whole sentence as it reads after a colon inside another ("Undid:
    /// Moved 'X'…"): with its capital, or begun with a small letter where the
    /// language's typography wants it (`grammar.afterColon` = `lowercase`).
    public func afterColon(_ sentence: String) -> String {
        guard string(.grammarAfterColon) == "lowercase", let first = sentence.first, first.isUppercase else {
            return sentence
        }
        return first.lowercased() + sentence.dropFirst()
    }

    /// A field's value quoted inside a sentence, with the language's quotes.
    public func quoted(_ value: String) -> String { string(.textQuoted, .text(value)) }

    /// Like ``string(_:_:)-(L10nKey,MessageArgument...)``, with the arguments as an array.
    public func string(_ key: L10nKey, arguments: [MessageArgument]) -> String {
        lookup(key.rawValue, arguments)
    }

    /// The plural form of `key` for `count`, chosen by each language's ICU plural rules.
    /// - Parameter arguments: further arguments after the count (`%2$@`, …).
    public func plural(_ key: L10nPluralKey, count: Int, _ arguments: MessageArgument...) -> String {
        let all = [MessageArgument.number(count)] + arguments
        let reference = englishFormat(key.rawValue + ".other")
        for layer in layers + english {
            let category = ICUPluralRules(locale: layer.language)?.category(for: count) ?? "other"
            for candidate in [key.rawValue + "." + category, key.rawValue + ".other"] {
                if let text = layer.values[candidate], let format = usable(text, reference: reference) {
                    return styled(format, layer).render(all)
                }
            }
        }
        return key.rawValue
    }

    private func lookup(_ key: String, _ arguments: [MessageArgument]) -> String {
        let reference = englishFormat(key)
        for layer in layers + english {
            if let text = layer.values[key], let format = usable(text, reference: reference) {
                return styled(format, layer).render(arguments)
            }
        }
        return key
    }

    private func styled(_ format: MessageFormat, _ layer: Layer) -> MessageFormat {
        pseudo && layer.language == "en" ? format.pseudoLocalized() : format
    }

    /// The built-in English format is the reference every translation must match.
    private func englishFormat(_ key: String) -> MessageFormat? {
        guard let text = english.last?.values[key] else { return nil }
        return try? MessageFormat(parsing: text)
    }

    /// A table value as a format, or nil when unusable. Control, escape and
    /// bidi characters in it are shown escaped: a table is untrusted text
    /// (`PM_LOCALIZATION_DIR`) and must never drive the terminal.
    private func usable(_ text: String, reference: MessageFormat?) -> MessageFormat? {
        guard let format = try? MessageFormat(parsing: TextSafety.escaped(text, keepNewlines: true)) else { return nil }
        guard let reference else { return format }
        return format.signature == reference.signature ? format : nil
    }
}
