/// How far a language's tables are translated: every English message and
/// plural counts once; translated is present and not empty (a plural: every
/// form the language needs); stale is translated, but from an English text
/// other than today's — the text each entry's comment records (`English:
/// "…"`, as `pm l10n new` writes it, and as a translator updates it with the
/// translation).
public struct LanguageStatus: Sendable, Equatable {
    public var language: String
    /// The table's own name for its language (`language.name`), or its code.
    public var name: String
    public var total: Int
    public var translated: Int
    /// Keys not translated yet, in English's order.
    public var missing: [String]
    /// Translated keys whose recorded English is not today's; nil when the
    /// table records no English at all (nobody can tell).
    public var stale: [String]?

    /// Whole percent translated, rounded down: 100 only when nothing is missing.
    public var percent: Int { total == 0 ? 100 : translated * 100 / total }
}

public enum TableStatus {
    /// `table`'s status against `english`.
    public static func status(english: TableFile, table: TableFile) -> LanguageStatus {
        let reference = StringsTableParser.parse(bytes: english.bytes).entries
        let referencePlurals = english.plurals.map { StringsDictParser.parse(bytes: $0.bytes).entries } ?? []
        let isEnglish = table.language == "en"
        let entries = isEnglish ? reference : StringsTableParser.parse(bytes: table.bytes).entries
        let plurals = isEnglish ? referencePlurals : table.plurals.map { StringsDictParser.parse(bytes: $0.bytes).entries } ?? []
        let values = Dictionary(entries.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let forms = Dictionary(plurals.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let needed = PluralProfile(language: table.language)?.categories ?? ["other"]
        var missing: [String] = []
        var stale: [String] = []
        var recorded = isEnglish
        func check(_ key: String, comment: String?, english: String) {
            guard let said = TableTemplate.recordedEnglish(in: comment) else { return }
            recorded = true
            if said != english { stale.append(key) }
        }
        for entry in reference {
            guard let mine = values[entry.key], !mine.value.isEmpty || entry.value.isEmpty else {
                missing.append(entry.key)
                continue
            }
            if !isEnglish { check(entry.key, comment: mine.comment, english: TableTemplate.englishNote(entry)) }
        }
        for entry in referencePlurals {
            guard let mine = forms[entry.key], let variable = mine.pluralVariable,
                needed.allSatisfy({ !(variable.forms[$0] ?? "").isEmpty })
            else {
                missing.append(entry.key)
                continue
            }
            if !isEnglish { check(entry.key, comment: mine.comment, english: TableTemplate.englishNote(entry)) }
        }
        let total = reference.count + referencePlurals.count
        let name = values["language.name"].map(\.value).flatMap { $0.isEmpty ? nil : $0 } ?? table.language
        return LanguageStatus(
            language: table.language, name: name, total: total, translated: total - missing.count, missing: missing,
            stale: recorded ? stale : nil)
    }
}
