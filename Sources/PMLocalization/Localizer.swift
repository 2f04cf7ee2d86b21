import PMICU
import Synchronization

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

    /// What lookups parsed and opened, kept for the next lookup: a history
    /// of 20 lines parsed the same formats and opened the same plural
    /// rules once a line (a third of `pm history`'s instructions).
    private struct Parsed {
        /// The English reference format of a key.
        var references: [String: MessageFormat?] = [:]
        /// A layer's value of a key as a usable format (nil: unusable or absent).
        var usable: [LayerKey: MessageFormat?] = [:]
        /// Each language's plural rules.
        var plurals: [String: ICUPluralRules?] = [:]
        /// Each language's plural profile (which forms may leave the count out).
        var profiles: [String: PluralProfile?] = [:]
        /// Each language's elidable words (`grammar.elisions` of its tables).
        var elisions: [String: Set<String>] = [:]
    }
    private struct LayerKey: Hashable {
        var layer: Int
        var key: String
    }
    private let parsed = Mutex(Parsed())

    /// Builds a localizer for `chain`, reading tables from `source`.
    public init(chain: LanguageChain, source: TableSource = TableSource()) {
        var layers: [Layer] = []
        // An English variant (en_GB, the pseudo-language en_XA) is a layer
        // only where a translator's folder gives it a table.
        for candidate in chain.candidates where candidate != "en" {
            for values in source.tables(for: candidate) {
                layers.append(Layer(language: candidate, values: values))
            }
        }
        self.layers = layers
        self.english = source.tables(for: "en").map { Layer(language: "en", values: $0) }
        self.pseudo = chain.candidates.first { $0.hasPrefix("en") } == "en_XA" && !layers.contains { $0.language == "en_XA" }
        self.language = pseudo ? "en_XA" : layers.first?.language ?? "en"
        Self.registerDateForms
        for layer in layers { Self.register(layer.values, language: layer.language) }
    }

    /// The built-in tables' date forms, given to the date formatter once
    /// (a date in French says `1er` whatever language the messages are in).
    private static let registerDateForms: Void = {
        for language in TableSource.shippedLanguages {
            for values in TableSource().tables(for: language) { register(values, language: language) }
        }
    }()

    /// A table's `date.firstDay` (`1er`), for dates in its language: a few
    /// letters and digits (a translator's table is untrusted text: no
    /// specifier, no control character reaches a date).
    private static func register(_ values: TableValues, language: String) {
        guard let form = values["date.firstDay"], (1...8).contains(form.count), form != "-",
            form.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "." })
        else { return }
        ICUDateFormatter.writeFirstDay(as: form, language: String(language.prefix { $0.isLetter }))
    }

    /// The placeholders of a plural message (its English `other` form's): the count first.
    public func pluralSignature(_ key: L10nPluralKey) -> [PlaceholderType] {
        englishFormat(key.rawValue + ".other")?.signature ?? [.number]
    }

    /// The resolved message format of `key`, for rendering it many times.
    public func format(_ key: L10nKey) -> MessageFormat? {
        resolved(key.rawValue)
    }

    /// The message for `key`, with its placeholders filled.
    public func string(_ key: L10nKey, _ arguments: MessageArgument...) -> String {
        lookup(key.rawValue, arguments)
    }

    /// Items of a list as the reader's language separates them (`a, b` in
    /// English, `a、b` in Japanese: `grammar.listSeparator`).
    public func list(_ items: [String]) -> String {
        items.joined(separator: string(.grammarListSeparator))
    }

    /// A whole sentence as it reads after a colon inside another ("Undid:
    /// Moved 'X'…"): with its capital, or begun with a small letter where the
    /// language's typography wants it (`grammar.afterColon` = `lowercase`).
    public func afterColon(_ sentence: String) -> String {
        // A word in capitals (ICU, TERM, PM_USER) is a name: kept as it is.
        guard string(.grammarAfterColon) == "lowercase", let first = sentence.first, first.isUppercase,
            sentence.dropFirst().first?.isLowercase == true
        else {
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
        plural(key, count: count, arguments: arguments)
    }

    /// ``plural(_:count:_:)`` with its further arguments in an array.
    public func plural(_ key: L10nPluralKey, count: Int, arguments: [MessageArgument]) -> String {
        let all = [MessageArgument.number(count)] + arguments
        let reference = englishFormat(key.rawValue + ".other")
        for (index, layer) in (layers + english).enumerated() {
            let category =
                pluralRules(layer.language)?.category(for: count) ?? Self.simplePluralCategory(layer.language, count)
            for candidate in [key.rawValue + "." + category, key.rawValue + ".other"] {
                // A form that leaves the count out ("une seule tâche") only
                // for the one count its category holds: never a lie for 0.
                if let format = usable(layer: index, candidate, reference: reference, plural: true),
                    !format.omitsCount || mayOmitCount(layer.language, candidate == key.rawValue + "." + category, count)
                {
                    return styled(format, layer).render(all, number: numberText)
                }
            }
        }
        return key.rawValue
    }

    private func lookup(_ key: String, _ arguments: [MessageArgument]) -> String {
        resolved(key)?.render(arguments) ?? key
    }

    /// The first usable value of `key` along the chain, then English.
    private func resolved(_ key: String) -> MessageFormat? {
        let reference = englishFormat(key)
        for (index, layer) in (layers + english).enumerated() {
            if let format = usable(layer: index, key, reference: reference) { return styled(format, layer) }
        }
        return nil
    }

    /// The plural category without ICU: `one` for 1, `other` for the rest
    /// (a table without a `one` form, as Korean's, gives its `other` for 1 too).
    static func simplePluralCategory(_ language: String, _ count: Int) -> String {
        count == 1 ? "one" : "other"
    }

    /// A count as this localizer's language writes it: thousands grouped
    /// (`1 200` in French, `1,200` in English); under 1,000, and without
    /// ICU, plain digits. Only a plural message's numbers are counts: other
    /// numbers (a pid, a line, a port) keep their digits.
    public func numberText(_ value: Int) -> String {
        guard value >= 1000 || value <= -1000 else { return String(value) }
        let locale = language == "en_XA" ? "en" : language
        return ICUNumbers.formatted(value, locale: locale) ?? String(value)
    }

    /// Whether `count` is the only count of its category in `language` (and
    /// the form looked at is that category's, not `other` standing in).
    private func mayOmitCount(_ language: String, _ isCategoryForm: Bool, _ count: Int) -> Bool {
        guard isCategoryForm else { return false }
        let profile: PluralProfile?
        if let known = parsed.withLock({ $0.profiles[language] }) {
            profile = known
        } else {
            profile = PluralProfile(language: language)
            parsed.withLock { $0.profiles[language] = .some(profile) }
        }
        guard let profile else {
            return count == 1
        }
        return profile.soleCount.values.contains(count)
    }

    private func pluralRules(_ language: String) -> ICUPluralRules? {
        if let known = parsed.withLock({ $0.plurals[language] }) { return known }
        let rules = ICUPluralRules(locale: language)
        parsed.withLock { $0.plurals[language] = .some(rules) }
        return rules
    }

    private func styled(_ format: MessageFormat, _ layer: Layer) -> MessageFormat {
        pseudo && layer.language == "en" ? format.pseudoLocalized() : format
    }

    /// The built-in English format is the reference every translation must match.
    private func englishFormat(_ key: String) -> MessageFormat? {
        if let known = parsed.withLock({ $0.references[key] }) { return known }
        let format = english.last?.values[key].flatMap { try? MessageFormat(parsing: $0) }
        parsed.withLock { $0.references[key] = .some(format) }
        return format
    }

    /// Layer `index`'s value of `key` as a usable format, parsed once.
    private func usable(layer index: Int, _ key: String, reference: MessageFormat?, plural: Bool = false)
        -> MessageFormat?
    {
        let cacheKey = LayerKey(layer: index, key: key)
        if let known = parsed.withLock({ $0.usable[cacheKey] }) { return known }
        let all = index < layers.count ? layers[index] : english[index - layers.count]
        let format = all.values[key].flatMap {
            usable($0, reference: reference, plural: plural, elisions: elisions(all.language))
        }
        parsed.withLock { $0.usable[cacheKey] = .some(format) }
        return format
    }

    /// A table value as a format, or nil when unusable. Control, escape and
    /// bidi characters in it are shown escaped: a table is untrusted text
    /// (`PM_LOCALIZATION_DIR`) and must never drive the terminal.
    /// The words `language`'s tables declare elidable (a translator's table
    /// and the built-in one together).
    private func elisions(_ language: String) -> Set<String> {
        if let known = parsed.withLock({ $0.elisions[language] }) { return known }
        var words = Set<String>()
        for layer in layers + english where layer.language == language {
            words.formUnion(Grammar.elisions(layer.values["grammar.elisions"]))
        }
        parsed.withLock { $0.elisions[language] = words }
        return words
    }

    private func usable(_ text: String, reference: MessageFormat?, plural: Bool, elisions: Set<String>) -> MessageFormat? {
        // Empty is not yet translated (as `pm l10n new` writes it), unless English is empty too.
        if text.isEmpty, reference?.isEmpty == false { return nil }
        guard
            let format = try? MessageFormat(
                parsing: TextSafety.escaped(text, keepNewlines: true), countMayBeOmitted: plural, elisions: elisions)
        else { return nil }
        guard let reference else { return format }
        return format.signature == reference.signature ? format : nil
    }
}
