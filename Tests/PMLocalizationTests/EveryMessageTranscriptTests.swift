import Foundation
import PMLocalization
import Testing

/// Every message of every table, rendered as pm renders it, with realistic
/// arguments (a title, a name, a column, a date, a file, per the English
/// comment's "%1$@ = …") and counts 0, 1, 2, 21, 1,200 and 1,000,000 (French says "de" after a million): the transcript a
/// native speaker reads in full (issue 44: "each table is read in full, on
/// the real outputs"). Committed, so that any change to what a reader sees
/// shows in review; PM_UPDATE_GOLDEN=1 writes it after a deliberate change.
@Suite struct EveryMessageTranscriptTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let englishTable = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Localization/en.lproj/Localizable.strings")

    /// Each key's comment in the English tables (what its placeholders are):
    /// `/* … */` before a key of the `.strings`, `<!-- … -->` before a plural
    /// of the `.stringsdict`.
    static let comments: [String: String] = {
        var result: [String: String] = [:]
        var comment = ""
        let strings = (try? String(contentsOf: englishTable, encoding: .utf8)) ?? ""
        for line in strings.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("/*") {
                comment = String(line)
            } else if line.hasPrefix("\""), let end = line.dropFirst().firstIndex(of: "\"") {
                result[String(line[line.index(after: line.startIndex)..<end])] = comment
            } else if line.isEmpty {
                comment = ""
            }
        }
        let plurals = englishTable.deletingPathExtension().appendingPathExtension("stringsdict")
        comment = ""
        for line in ((try? String(contentsOf: plurals, encoding: .utf8)) ?? "").split(separator: "\n") {
            if line.hasPrefix("\t<!--") {
                comment = String(line)
            } else if line.hasPrefix("\t<key>"), line.hasSuffix("</key>") {
                result[String(line.dropFirst(6).dropLast(6))] = comment
                comment = ""
            }
        }
        return result
    }()

    /// A realistic value for placeholder `index` of `key`, from what its comment says it is.
    static func sample(_ index: Int, of key: String, in language: String, localizer: Localizer) -> String {
        let comment = comments[key] ?? ""
        var said = ""
        if let range = comment.range(of: "%\(index)$@ = ") {
            said = String(comment[range.upperBound...].prefix { $0 != "," && $0 != ";" && $0 != "." && $0 != ")" })
                .lowercased()
        }
        let title =
            ["fr": "Réunion d’équipe", "ko": "보고서 검토", "de": "Teambesprechung", "ja": "報告書の確認"][language] ?? "Budget 2027"
        let date =
            ["fr": "26 nov. 2026", "ko": "2026년 11월 26일", "de": "26.11.2026", "ja": "2026/11/26"][language] ?? "Nov 26, 2026"
        let moment =
            ["fr": "26 nov. 2026, 15:57", "ko": "2026년 11월 26일 오후 3:57", "de": "26.11.2026, 15:57", "ja": "2026/11/26 15:57"][
                language] ?? "Nov 26, 2026, 3:57 PM"
        // A moment inside a sentence, as pm joins it there (Style.momentInSentence).
        let inProse =
            [
                "fr": "26 novembre 2026 à 15:57", "ko": "2026년 11월 26일 오후 3:57", "de": "26. November 2026 um 15:57",
                "ja": "2026年11月26日 15:57",
            ][language]
            ?? "November 26, 2026 at 3:57\u{202F}PM"
        let saysAMomentInProse = key.hasPrefix("error.undo") || key.hasPrefix("error.redo") || key == "html.made"
        func has(_ words: String...) -> Bool { words.contains { said.contains($0) } }
        // The day a typed date became is said with its weekday (Style.dateWithWeekday).
        if key == "message.dayChosen" && index == 2 {
            return [
                "fr": "vendredi 4 décembre 2026", "ko": "2026년 12월 4일 금요일", "de": "Freitag, 4. Dezember 2026",
                "ja": "2026年12月4日金曜日",
            ][language] ?? "Friday, December 4, 2026"
        }
        if has("field") { return "due" }
        if has(" id", "id ", "prefix") || said == "id" || (key.hasSuffix("ID") && has("typed")) { return "3f2a" }
        if has("problem", "reason", "why", "error", "what went wrong") { return localizer.string(.corruptTruncated) }
        if has("language") { return "ko" }
        if has("key") && !has("keys") { return "y" }
        if has("as typed", "typed", "text", "word", "value") { return "vendredi prochain" }
        if has("title", "task", "card") { return title }
        if has("column", "state", "to", "from") { return localizer.string(.columnDoing) }
        if has("moment", "when", "time") { return saysAMomentInProse ? inProse : moment }
        if has("date", "day", "deadline") { return date }
        if has("file", "path", "board") { return "trello.json" }
        if has("person", "name", "who", "user", "author", "teammate", "replica") { return "camille" }
        if has("remote", "target", "folder", "url") { return "/srv/share/pm" }
        if has("list", "names", "forms", "values", "keys") { return "'a', 'b'" }
        if has("character", "char") { return "U+202E" }
        if has("command") { return "pm list" }
        return "x"
    }

    static func transcript(_ language: String) -> String {
        let localizer = Localizer(chain: LanguageChain([language]))
        var lines: [String] = []
        func arguments(_ key: String, _ signature: [PlaceholderType], count: Int?) -> [MessageArgument] {
            signature.enumerated().map { offset, type in
                switch type {
                case .number: return .number(count ?? 3)
                case .text: return .text(sample(offset + 1, of: key, in: language, localizer: localizer))
                }
            }
        }
        for key in L10nKey.allCases {
            guard let format = localizer.format(key) else {
                lines.append("\(key.rawValue)\n  (none)")
                continue
            }
            let text = localizer.string(key, arguments: arguments(key.rawValue, format.signature, count: nil))
            lines.append(key.rawValue + "\n  " + text.replacingOccurrences(of: "\n", with: "\n  "))
        }
        for key in L10nPluralKey.allCases {
            lines.append(key.rawValue)
            for count in [0, 1, 2, 21, 1200, 1_000_000] {
                let signature = localizer.pluralSignature(key)
                let rest = Array(arguments(key.rawValue, signature, count: count).dropFirst())
                lines.append("  [\(count)] " + localizer.plural(key, count: count, arguments: rest))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The pseudo-language (`en_XA`) too: every message accented and
    /// bracketed, none left as plain English.
    @Test(arguments: ["en", "fr", "ko", "de", "ja", "en_XA"])
    func everyMessageAsAReaderSeesIt(language: String) throws {
        let text = Self.transcript(language)
        let file = Self.fixtures.appendingPathComponent("every-message-\(language).txt")
        if ProcessInfo.processInfo.environment["PM_UPDATE_GOLDEN"] == "1" {
            try Data(text.utf8).write(to: file)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(
            text == expected, "every-message-\(language).txt differs: PM_UPDATE_GOLDEN=1, then read the diff as a native reader")
        // Every key is there, none left as its own name.
        #expect(!text.contains("(none)"))
        if language == "en_XA" {
            // Each message's first line opens its bracket (an English value left empty stays empty).
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let plain = zip(lines, lines.dropFirst()).filter { key, first in
                !key.hasPrefix(" ") && first.hasPrefix("  ") && !first.hasPrefix("  [")
                    && first.trimmingCharacters(in: .whitespaces) != ""
            }.map { $0.0 }
            #expect(plain.isEmpty, "\(plain.prefix(5))")
        }
        #expect(text.split(separator: "\n").count >= L10nKey.allCases.count * 2)
    }
}
