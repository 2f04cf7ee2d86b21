import Foundation
import Testing

/// The translators' side: `pm l10n check`, `PM_LOCALIZATION_DIR`, hostile tables.
@Suite struct TranslatorTests {
    /// A copy of the shipped tables in a temp folder, for breaking.
    func copyOfTables(_ pm: PMBinary) throws -> String {
        let dir = pm.home.file("tables")
        for language in ["en", "fr", "ko"] {
            let target = dir + "/\(language).lproj"
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            for file in ["Localizable.strings", "Localizable.stringsdict"] {
                try FileManager.default.copyItem(
                    at: PMBinary.packageRoot.appendingPathComponent("Localization/\(language).lproj/\(file)"),
                    to: URL(fileURLWithPath: target + "/" + file))
            }
        }
        return dir
    }

    func edit(_ path: String, _ change: (inout [String]) -> Void) throws {
        var lines = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
            .components(separatedBy: "\n")
        change(&lines)
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
    }

    func lineNumber(_ path: String, _ prefix: String) throws -> Int {
        let lines = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self).components(
            separatedBy: "\n")
        return try #require(lines.firstIndex { $0.hasPrefix(prefix) }) + 1
    }

    @Test func theShippedTablesAreClean() throws {
        let run = try PMBinary().run(["l10n", "check"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        // A language is a folder: every one of Localization/ is built in and checked.
        let folders = try FileManager.default.contentsOfDirectory(
            atPath: PMBinary.packageRoot.appendingPathComponent("Localization").path
        ).filter { $0.hasSuffix(".lproj") }
        #expect(folders.count >= 5 && run.stdout == "\(folders.count) tables checked: no problems.\n")
        let pm = PMBinary()
        let copy = try pm.run(["l10n", "check", try copyOfTables(pm)])
        #expect(copy.status == 0)
    }

    @Test func eachFaultIsFoundAtItsLine() throws {
        let pm = PMBinary()
        let dir = try copyOfTables(pm)
        let fr = dir + "/fr.lproj/Localizable.strings"
        let ko = dir + "/ko.lproj/Localizable.strings"
        let en = dir + "/en.lproj/Localizable.strings"
        let semicolon = try lineNumber(fr, "\"column.done\"")
        let moved = try lineNumber(fr, "\"message.moved\"")
        let frPlurals = dir + "/fr.lproj/Localizable.stringsdict"
        let summary = try lineNumber(frPlurals, "\t<key>list.summary</key>")
        let state = try lineNumber(fr, "\"show.state\"")
        try edit(fr) { lines in
            lines[semicolon - 1] = "\"column.done\" = \"TERMINÉ\""
            lines[moved - 1] = "\"message.moved\" = \"%1$d déplacé de %2$@ à %3$@.\";"
            lines[state - 1] = "\"show.state\" = \"%n\";"
            lines.append("\"list.summery\" = \"typo\";")
            lines.append("# not a comment")
            lines.append("\"show.id\" = \"again\";")
            lines.append("\"show.title\" = \"bad \\q escape\";")
        }
        // The `one` form of list.summary: its key and its string.
        let frLines = try String(contentsOfFile: frPlurals, encoding: .utf8).components(separatedBy: "\n")
        let one = try #require(frLines[summary...].firstIndex { $0.hasSuffix("<key>one</key>") })
        try edit(frPlurals) { lines in lines.removeSubrange(one...(one + 1)) }
        let count = String(decoding: try Data(contentsOf: URL(fileURLWithPath: fr)), as: UTF8.self).components(separatedBy: "\n")
            .count
        let titleEmpty = try lineNumber(ko, "\"error.titleEmpty\"")
        try edit(ko) { lines in
            lines.remove(at: titleEmpty - 1)
            lines.append("\"card.due\" = \"마감 %1$@")
        }
        let koCount = String(decoding: try Data(contentsOf: URL(fileURLWithPath: ko)), as: UTF8.self).components(
            separatedBy: "\n"
        ).count
        let run = try pm.run(["l10n", "check", dir])
        #expect(run.status == 65)
        let expected = [
            "\(fr):\(semicolon): missing ';' after the value",
            "\(fr):\(moved): 'message.moved' has placeholders (%1$d, %2$@, %3$@) where English has (%1$@, %2$@, %3$@)",
            "\(fr):\(count - 3): key 'list.summery' is not in English",
            "\(fr):\(count - 2): junk: expected a quoted key or a comment",
            "\(fr):\(count - 1): duplicate key 'show.id' (first on line",
            "\(fr):\(count): unknown escape \\q",
            "\(fr):\(state): 'show.state' uses %n, which pm does not accept",
            ":\(try lineNumber(en, "\"column.done\"")): key 'column.done' is missing in fr",
            "\(frPlurals):\(summary): 'list.summary' has no 'one' form, which fr needs",
            ":\(try lineNumber(en, "\"error.titleEmpty\"")): key 'error.titleEmpty' is missing in ko",
            "\(ko):\(koCount): unterminated string",
        ]
        for line in expected {
            #expect(run.stdout.contains(line), "missing: \(line)\n\(run.stdout)")
        }
        // Localized for the translator too.
        let french = try pm.run(["l10n", "check", dir], ["LANG": "fr_FR.UTF-8"])
        #expect(french.stdout.contains("\(fr):\(semicolon): « ; » manquant après la valeur"))
    }

    /// A particle or elision notation that is unknown, unclosed or away from
    /// its placeholder is reported at its line; at run time that key falls
    /// back to English instead of printing the notation.
    @Test func aBrokenGrammarNotationIsFound() throws {
        let pm = PMBinary(language: "ko_KR.UTF-8")
        let dir = try copyOfTables(pm)
        let ko = dir + "/ko.lproj/Localizable.strings"
        let fr = dir + "/fr.lproj/Localizable.strings"
        let moved = try lineNumber(ko, "\"message.moved\"")
        let edited = try lineNumber(ko, "\"message.edited\"")
        let added = try lineNumber(ko, "\"message.added\"")
        let frMoved = try lineNumber(fr, "\"message.moved\"")
        try edit(ko) { lines in
            lines[moved - 1] = "\"message.moved\" = \"'%1$@'을(가) %2$@에서 %3$@(으)로 옮겼습니다.\";"
            lines[edited - 1] = "\"message.edited\" = \"'%1$@'을(를 수정했습니다.\";"
            lines[added - 1] = "\"message.added\" = \"추가(으)로 '%1$@'을(를) 넣었습니다.\";"
        }
        try edit(fr) { lines in lines[frMoved - 1] = "\"message.moved\" = \"« %1$@ » déplacée {du} %2$@ vers %3$@.\";" }
        let run = try pm.run(["l10n", "check", dir], ["LANG": "en_US.UTF-8"])
        #expect(run.status == 65)
        for (file, line) in [(ko, moved), (ko, edited), (ko, added), (fr, frMoved)] {
            #expect(run.stdout.contains("\(file):\(line): "), "\(file):\(line)\n\(run.stdout)")
        }
        #expect(run.stdout.contains("{du}"))
        #expect(run.stdout.components(separatedBy: "\n").filter { $0.contains("grammar notation") }.count == 4)
        let id = try pm.run(["add", "보고서"], ["PM_LOCALIZATION_DIR": dir]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let move = try pm.run(["move", id, "doing"], ["PM_LOCALIZATION_DIR": dir])
        #expect(move.status == 0)
        #expect(move.stdout == "'보고서'를 할 일에서 진행 중으로 옮겼습니다.\n", "the broken key falls back to the shipped table")
        let english = try pm.run(["move", id, "done"], ["PM_LOCALIZATION_DIR": dir, "LANG": "xx_XX.UTF-8", "LANGUAGE": "ko_XX"])
        #expect(!english.stdout.contains("(으)로") && !english.stdout.contains("을(가)"))
    }

    @Test func aWrongEncodingIsReported() throws {
        let pm = PMBinary()
        let dir = try copyOfTables(pm)
        let fr = dir + "/fr.lproj/Localizable.strings"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fr)))
        bytes.insert(0xE9, at: 40)
        try Data(bytes).write(to: URL(fileURLWithPath: fr))
        let run = try pm.run(["l10n", "check", dir])
        #expect(run.status == 65)
        #expect(run.stdout.contains("not UTF-8 (nor UTF-16 with a BOM) at byte 40"))
    }

    /// Every value of every table replaced by mismatched specifiers: every
    /// command still works, in English where the language has no other table
    /// (`sv`), and from the built-in table where it has one (`fr`, `ko`).
    @Test func aHostileTableCannotCrashAnyCommand() throws {
        let pm = PMBinary(language: "sv_SE.UTF-8")
        let dir = try copyOfTables(pm)
        try FileManager.default.createDirectory(atPath: dir + "/sv.lproj", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: dir + "/fr.lproj/Localizable.strings", toPath: dir + "/sv.lproj/Localizable.strings")
        try FileManager.default.copyItem(
            atPath: dir + "/fr.lproj/Localizable.stringsdict", toPath: dir + "/sv.lproj/Localizable.stringsdict")
        for language in ["en", "fr", "ko", "sv"] {
            try edit(dir + "/\(language).lproj/Localizable.strings") { lines in
                lines = lines.map { line in
                    guard line.hasPrefix("\""), let equals = line.range(of: "\" = \"") else { return line }
                    return String(line[..<equals.lowerBound]) + "\" = \"%d %n %s %@ %1$d %99$@ %lu %\";"
                }
            }
            // Every plural form too (the rule type and value type stay).
            try edit(dir + "/\(language).lproj/Localizable.stringsdict") { lines in
                lines = lines.map { line in
                    guard line.hasPrefix("\t\t\t<string>"), !line.contains("NSString"), line != "\t\t\t<string>d</string>" else {
                        return line
                    }
                    return "\t\t\t<string>%d %n %s %@ %1$d %99$@ %lu %</string>"
                }
            }
        }
        let hostile = ["PM_LOCALIZATION_DIR": dir]
        try pm.useSampleBoard()
        let commands: [[String]] = [
            ["list"], ["list", "--json"], ["show", "3f2a"], ["add", "x", "--due", "tomorrow"], ["edit", "3f2a", "--title", "y"],
            ["move", "3f2a", "doing"], ["history"], ["undo"], ["redo"], ["remind", "--all"], ["export", "ics"],
            ["delete", "3f2b"],
            ["l10n", "check"], ["--help"], ["add", "--help"],
        ]
        for (index, command) in commands.enumerated() {
            let language = ["sv_SE.UTF-8", "fr_FR.UTF-8", "ko_KR.UTF-8"][index % 3]
            let run = try pm.run(command, hostile.merging(["LANG": language]) { $1 })
            #expect(run.status == 0, "\(command) \(language): \(run.stderr)")
            #expect(!run.stdout.contains("%n") && !run.stdout.contains("%99"), "\(command): raw specifiers printed")
            #expect(!run.stderr.contains("%n") && !run.stderr.contains("%99"), "\(command): raw specifiers printed")
        }
        let list = try pm.run(["list"], hostile)
        #expect(list.stdout.contains("TODO (") && list.stdout.contains("DOING ("))
        #expect(try pm.run(["list"], hostile.merging(["LANG": "fr_FR.UTF-8"]) { $1 }).stdout.contains("À FAIRE ("))
        #expect(try pm.run(["move", "3f2a", "todo"], hostile).stdout.contains("Moved 'y' from DOING to TODO."))
        let error = try pm.run(["show", "ffff"], hostile)
        #expect(error.status == 1 && error.stderr == "pm: error: No task matches 'ffff'.\n")
        // The checker says what is wrong with the hostile tables.
        let check = try pm.run(["l10n", "check", dir])
        #expect(check.status == 65 && check.stdout.contains("which pm does not accept"))
    }

    @Test func aNewLanguageAddedOnlyThroughTheFolderShowsUp() throws {
        let pm = PMBinary(language: "sv_SE.UTF-8")
        let dir = pm.home.file("mine/sv.lproj")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data(
            """
            "column.todo" = "ATT GÖRA";
            "column.doing" = "PÅGÅR";
            "column.done" = "KLART";
            "list.summary.one" = "%1$d uppgift";
            "list.summary.other" = "%1$d uppgifter";
            "date.tomorrow" = "imorgon";
            """.utf8
        ).write(to: URL(fileURLWithPath: dir + "/Localizable.strings"))
        let env = ["PM_LOCALIZATION_DIR": pm.home.file("mine")]
        let added = try pm.run(["add", "Rapport", "--due", "imorgon"], env)
        #expect(added.status == 0, "\(added.stderr)")
        let list = try pm.run(["list"], env)
        #expect(list.stdout.contains("ATT GÖRA (1)"))
        #expect(list.stdout.contains("PÅGÅR (0)"))
        #expect(list.stdout.contains("1 uppgift"))
        #expect(list.stdout.contains("22 nov."), "\(list.stdout)")
        // Keys the translator has not done yet fall back to English.
        #expect(try pm.runInTerminal(["list", "--color", "never"], env).stdout.contains("pm undo is available"))
        #expect(try pm.run(["move", "ffff", "pågår"], env).stderr.contains("No task matches 'ffff'."))
    }

    /// A translator's plurals in a `Localizable.stringsdict` (Apple's format,
    /// as Weblate and Crowdin keep them) beside the table are read without a
    /// rebuild, each category as its own form; a broken one changes nothing.
    @Test func aTranslatorsStringsdictIsRead() throws {
        let pm = PMBinary(language: "fr_FR.UTF-8")
        try pm.run(["add", "Une"])
        let folder = pm.home.file("l10n/fr.lproj")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
              <key>list.summary</key>
              <dict>
                <key>NSStringLocalizedFormatKey</key><string>%#@tasks@</string>
                <key>tasks</key>
                <dict>
                  <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
                  <key>NSStringFormatValueTypeKey</key><string>d</string>
                  <key>one</key><string>%1$d carte au tableau</string>
                  <key>other</key><string>%1$d cartes au tableau</string>
                </dict>
              </dict>
            </dict></plist>
            """
        try Data(plist.utf8).write(to: URL(fileURLWithPath: folder + "/Localizable.stringsdict"))
        let env = ["PM_LOCALIZATION_DIR": pm.home.file("l10n")]
        #expect(try pm.run(["list"], env).stdout.contains("1 carte au tableau"))
        try pm.run(["add", "Deux"])
        #expect(try pm.run(["list"], env).stdout.contains("2 cartes au tableau"))
        // Only plural messages: a "category" cannot replace another message.
        let other = plist.replacingOccurrences(of: "<key>list.summary</key>", with: "<key>list</key>")
            .replacingOccurrences(of: "<key>one</key>", with: "<key>emptyColumn</key>")
        try Data(other.utf8).write(to: URL(fileURLWithPath: folder + "/Localizable.stringsdict"))
        let list = try pm.run(["list"], env).stdout
        #expect(list.contains("(vide)") && list.contains("2 tâches"), "\(list)")
        // Broken (no closing tags): the built-in words stay.
        try Data(plist.utf8.dropLast(20)).write(to: URL(fileURLWithPath: folder + "/Localizable.stringsdict"))
        let broken = try pm.run(["list"], env)
        #expect(broken.status == 0 && broken.stdout.contains("2 tâches"), "\(broken.stdout)")
    }
}
