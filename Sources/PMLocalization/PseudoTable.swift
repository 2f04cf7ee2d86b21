/// The tables `pm l10n pseudo` writes: every English message accented,
/// lengthened by about 40% and bracketed (`[Ðéļéţé ~~]`), so that plain
/// English left on screen is text no table gives, and a lost bracket is text
/// cut too short. Words people type keep their English forms beside the
/// accented ones (typing stays possible), and values that are settings
/// rather than words (`board.yesKeys`, `grammar.*`, `-`) stay as they are.
public enum PseudoTable {
    /// The `.strings` of a pseudo-language, from English's bytes.
    public static func strings(language: String, english: [UInt8], version: String) -> String {
        var text = "/* pm — \(language), a pseudo-language made by pm l10n pseudo from pm \(version)'s English table:\n"
        text += "   accented, lengthened and bracketed, to find text no table gives and text cut too short. */\n"
        for entry in StringsTableParser.parse(bytes: english).entries {
            let note = [entry.comment, TableTemplate.englishNote(entry)].compactMap { $0 }.joined(separator: "\n   ")
            text += "\n/* \(note) */\n"
            text += "\(TableTemplate.quoted(entry.key)) = \(TableTemplate.quoted(value(entry.key, entry.value)));\n"
        }
        return text
    }

    /// The `.stringsdict` of a pseudo-language: each category `categories`
    /// names, from English's form of that category, else its `other`.
    public static func plurals(language: String, english: [UInt8], categories: [String]) -> String {
        TableTemplate.pluralTable(english: english) { entry in
            let forms = Dictionary(entry.suffixedForms.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            return categories.map { category in
                (category, accented(forms[entry.key + "." + category] ?? forms[entry.key + ".other"] ?? ""))
            }
        }
    }

    /// A message's pseudo form; a word list's alternatives, accented, before
    /// its English ones; a setting as it is.
    static func value(_ key: String, _ english: String) -> String {
        let settings: Set<String> = ["board.yesKeys", "board.noKeys", "recur.words.endings", "date.daySuffixes"]
        guard english.unicodeScalars.contains(where: { $0.properties.isAlphabetic }), !settings.contains(key),
            !key.hasPrefix("grammar.")
        else { return english }
        let isWordList = english.contains("|") || key.hasPrefix("date.") || key.hasPrefix("recur.words.")
        guard isWordList else { return accented(english) }
        // `/` joins a list item's alternatives (`first/1st|second`): the
        // accented one goes beside the English ones in the same place.
        if english.contains("/") {
            return english.split(separator: "|", omittingEmptySubsequences: false).map { item in
                let alternatives = item.split(separator: "/").map(String.init)
                return (alternatives.map(letters) + alternatives).joined(separator: "/")
            }.joined(separator: "|")
        }
        let alternatives = english.split(separator: "|").map(String.init)
        return (alternatives.map(letters) + alternatives).joined(separator: "|")
    }

    /// A message's text accented, lengthened and bracketed, its placeholders
    /// as they are; a value pm cannot read as a message, only accented.
    static func accented(_ english: String) -> String {
        guard !english.isEmpty else { return english }
        guard let format = try? MessageFormat(parsing: english, countMayBeOmitted: true) else { return letters(english) }
        return format.pseudoLocalized().tableText
    }

    /// Letters accented, nothing added.
    static func letters(_ text: String) -> String {
        guard let format = try? MessageFormat(parsing: text) else { return text }
        return format.accentedLetters().tableText
    }
}
