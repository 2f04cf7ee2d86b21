/// The tables `pm l10n new LANG` writes: every message of English with its
/// comment and its English text as the translator's notes, each value empty
/// (pm shows English for an empty value until it is translated), and every
/// plural with exactly the forms the language's rules need.
public enum TableTemplate {
    /// The `.strings` of a new language, from English's `.strings` bytes.
    public static func strings(language: String, english: [UInt8], version: String) -> String {
        var text = "/* pm — \(language). Made by pm l10n new from pm \(version)'s English table.\n"
        text += "   Each value is empty until translated: pm shows the English text of an empty value.\n"
        text += "   Check your work with pm l10n check and pm l10n status (Localization/README.md). */\n"
        for entry in StringsTableParser.parse(bytes: english).entries {
            let note = [entry.comment, englishNote(entry)].compactMap { $0 }.joined(separator: "\n   ")
            text += "\n/* \(note) */\n"
            text += "\(quoted(entry.key)) = \"\";\n"
        }
        return text
    }

    /// What a translation records of the English it was made from, as the
    /// last line of its comment: `English: "due %1$@"` (`*/` written `* /`).
    public static func englishNote(_ entry: StringsTableEntry) -> String {
        ("English: " + quoted(entry.value)).replacingAll("*/", with: "* /")
    }

    /// The same for a plural: `English: one: "%1$d task"; other: "%1$d tasks"`
    /// (`--` written with two hyphens U+2010, as XML comments need).
    public static func englishNote(_ entry: StringsDictEntry) -> String {
        let forms = entry.suffixedForms.map { "\($0.key.dropFirst(entry.key.count + 1)): \(quoted($0.value))" }
        return ("English: " + forms.joined(separator: "; ")).replacingAll("--", with: "\u{2010}\u{2010}")
    }

    /// The English a comment records (its last line that begins `English: `),
    /// or nil when it records none.
    public static func recordedEnglish(in comment: String?) -> String? {
        guard let comment else { return nil }
        return comment.split(separator: "\n").map { String($0).trimmingSpaces }.last { $0.hasPrefix("English: ") }
    }

    /// The `.stringsdict` of a new language, from English's: each plural with
    /// an empty form for each category of `categories`.
    public static func plurals(language: String, english: [UInt8], categories: [String]) -> String {
        pluralTable(english: english) { _ in categories.map { ($0, "") } }
    }

    /// A `.stringsdict` with English's plurals, each with its English comment
    /// and record, and the forms `forms` gives it (category, text).
    static func pluralTable(english: [UInt8], forms: (StringsDictEntry) -> [(String, String)]) -> String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text += "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
        text += "<plist version=\"1.0\">\n<dict>\n"
        for entry in StringsDictParser.parse(bytes: english).entries {
            let note = ([entry.comment].compactMap { $0 } + [englishNote(entry)]).joined(separator: "\n\t     ")
            text += "\t<!-- \(note.replacingAll("--", with: "\u{2010}\u{2010}")) -->\n"
            text += "\t<key>\(xml(entry.key))</key>\n\t<dict>\n"
            text += "\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%#@count@</string>\n"
            text += "\t\t<key>count</key>\n\t\t<dict>\n"
            text += "\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n"
            text += "\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>d</string>\n"
            for (category, form) in forms(entry) {
                text += "\t\t\t<key>\(category)</key>\n\t\t\t<string>\(xml(form))</string>\n"
            }
            text += "\t\t</dict>\n\t</dict>\n"
        }
        return text + "</dict>\n</plist>\n"
    }

    /// `text` as a `.strings` literal: quoted, with `\"`, `\\`, `\n`, `\t`, `\r` escaped.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// `text` with XML's special characters as entities.
    public static func xml(_ text: String) -> String {
        text.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;")
    }
}

extension String {
    /// Every `target` replaced by `replacement` (FoundationEssentials-free).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
