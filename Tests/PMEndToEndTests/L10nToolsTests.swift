import Foundation
import PMICU
import Testing

/// The translator's tools: `pm l10n new` (a table with every key, values
/// empty, the forms the language needs), `pm l10n status` (translated,
/// missing, stale), `pm l10n pseudo` (a whole pseudo-language); and a
/// language dropped into `PM_LOCALIZATION_DIR` used in every command with no rebuild.
@Suite struct L10nToolsTests {
    func status(_ pm: PMBinary, _ dir: String) throws -> [String: [String: Any]] {
        let run = try pm.run(["l10n", "status", dir, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let languages = object?["languages"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: languages.map { ($0["language"] as? String ?? "", $0) })
    }

    @Test func newWritesEveryMessageAndNeverOverwrites() throws {
        let pm = PMBinary()
        let dir = pm.home.file("tables")
        let made = try pm.run(["l10n", "new", "es", dir])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("es.lproj") && made.stdout.contains("one, many, other"), "\(made.stdout)")
        let strings = dir + "/es.lproj/Localizable.strings"
        let before = try Data(contentsOf: URL(fileURLWithPath: strings))
        // Every English message, with its English text as a note, empty.
        let text = String(decoding: before, as: UTF8.self)
        #expect(
            text.contains("/* Shown in a column that has no cards.\n   English: \"(empty)\" */\n\"list.emptyColumn\" = \"\";"))
        // Never over a table that is there; nothing written for a name that is no language.
        let again = try pm.run(["l10n", "new", "es", dir])
        #expect(again.status == 73 && again.stderr.contains("already exists"), "\(again.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: strings)) == before)
        for name in ["../x", "en", "x/y", "", "e", "de_D!"] {
            let bad = try pm.run(["l10n", "new", name, dir])
            #expect(bad.status == 64, "\(name): \(bad.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["es.lproj"])
        // An empty table is clean (empty is not translated yet), and counted.
        #expect(try pm.run(["l10n", "check", dir]).status == 0)
        var es = try status(pm, dir)["es"] ?? [:]
        let total = es["messages"] as? Int ?? 0
        #expect(total > 900 && (es["translated"] as? Int ?? 0) < 10 && (es["stale"] as? [String]) == [])
        #expect((es["missing"] as? [String] ?? []).contains("column.todo"))
        // Two translated: counted, and shown in pm at once.
        try TranslatorTests().edit(strings) { lines in
            if let index = lines.firstIndex(of: "\"column.todo\" = \"\";") { lines[index] = "\"column.todo\" = \"POR HACER\";" }
        }
        es = try status(pm, dir)["es"] ?? [:]
        #expect(!(es["missing"] as? [String] ?? []).contains("column.todo"))
        let list = try pm.run(["list"], ["PM_LOCALIZATION_DIR": dir, "LANG": "es_ES.UTF-8"])
        #expect(list.stdout.contains("POR HACER (0)") && list.stdout.contains("DOING (0)"), "\(list.stdout)")
        // English changes: the translation made from the old text is stale.
        let english = dir + "/en.lproj"
        try FileManager.default.createDirectory(atPath: english, withIntermediateDirectories: true)
        for file in ["Localizable.strings", "Localizable.stringsdict"] {
            try FileManager.default.copyItem(
                at: PMBinary.packageRoot.appendingPathComponent("Localization/en.lproj/" + file),
                to: URL(fileURLWithPath: english + "/" + file))
        }
        try TranslatorTests().edit(english + "/Localizable.strings") { lines in
            if let index = lines.firstIndex(of: "\"column.todo\" = \"TODO\";") { lines[index] = "\"column.todo\" = \"TO DO\";" }
        }
        let stale = try status(pm, dir)
        #expect((stale["es"]?["stale"] as? [String]) == ["column.todo"], "\(stale["es"] ?? [:])")
        #expect((stale["en"]?["percent"] as? Int) == 100)
        let human = try pm.run(["l10n", "status", dir]).stdout
        #expect(human.contains("stale: column.todo"), "\(human)")
    }

    /// A list in a sentence or a field is separated as the language does
    /// (`grammar.listSeparator`): `bug、ux` in Japanese, `bug, ux` in English.
    @Test func listsAreSeparatedAsTheLanguageDoes() throws {
        let pm = PMBinary(language: "ja_JP.UTF-8")
        let id = try pm.run(["add", "報告", "--label", "bug,ux", "--to", "hana,jiro"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let show = try pm.run(["show", id]).stdout
        #expect(show.contains("bug、ux") && show.contains("hana、jiro"), "\(show)")
        let english = try pm.run(["show", id], ["LANG": "en_US.UTF-8"]).stdout
        #expect(english.contains("bug, ux") && english.contains("hana, jiro"), "\(english)")
    }

    /// A shipped language's status: everything translated, nothing stale.
    @Test func theShippedLanguagesAreWhole() throws {
        let run = try PMBinary().run(["l10n", "status", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let languages = object?["languages"] as? [[String: Any]] ?? []
        #expect(Set(languages.compactMap { $0["language"] as? String }).isSuperset(of: ["en", "fr", "ko", "de", "ja"]))
        for language in languages {
            #expect(language["percent"] as? Int == 100, "\(language)")
            #expect((language["missing"] as? [String]) == [] && (language["stale"] as? [String]) == [], "\(language)")
        }
    }

    /// Words of pm's English messages (at least four letters) that are not
    /// names typed as they are: one left in a pseudo-language's output is
    /// text no table gives.
    static let englishWords: Set<String> = {
        let table = PMBinary.packageRoot.appendingPathComponent("Localization/en.lproj/Localizable.strings")
        let text = (try? String(contentsOf: table, encoding: .utf8)) ?? ""
        var words = Set<String>()
        for line in text.split(separator: "\n") where line.hasPrefix("\"") {
            guard let equals = line.range(of: "\" = \"") else { continue }
            for word in line[equals.upperBound...].split(whereSeparator: { !$0.isLetter }) where word.count >= 4 {
                if word.allSatisfy({ $0.isASCII && $0.isLowercase }) { words.insert(String(word)) }
            }
        }
        return words.subtracting(["todo", "doing", "done", "json", "help", "board", "list", "sync", "undo", "redo", "news"])
    }()

    /// pm's command names (the first word of each line of the English
    /// `pm --help` that lists them): typed as they are in every language.
    static let commandNames: Set<String> = {
        let help = (try? PMBinary().run(["--help"]).stdout) ?? ""
        return Set(
            help.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.flatMap { line in
                // `list, ls    Show the board`: the names before the description.
                (line.split(separator: "  ", omittingEmptySubsequences: true).first ?? "").split(whereSeparator: {
                    !$0.isLetter
                }).map(String.init)
            })
    }()

    /// English words left in `text`, leaving out options (`--body`), command
    /// names and the words `typed` (a title, a date as typed).
    func englishLeft(_ text: String, besides typed: Set<String>) -> [String] {
        text.split(whereSeparator: \.isWhitespace).filter { !$0.hasPrefix("-") && !$0.hasPrefix("[-") }
            .flatMap { $0.split(whereSeparator: { !($0.isASCII && $0.isLetter) }) }.map { $0.lowercased() }
            .filter { Self.englishWords.contains($0) && !typed.contains($0) && !Self.commandNames.contains($0) }
    }

    /// A language pm does not ship (`es`, as `pm l10n pseudo` writes it),
    /// dropped into the folder: add, list, history, an error, help and the
    /// board all speak it, with no English left and nothing cut.
    @Test(arguments: ["es_ES.UTF-8", "en_XA.UTF-8"])
    func aPseudoLanguageDroppedInIsUsedEverywhere(language: String) throws {
        let pm = PMBinary(language: language)
        let dir = pm.home.file("tables")
        let code = String(language.prefix { $0 != "." })
        let made = try pm.run(["l10n", "pseudo", dir] + (code == "en_XA" ? [] : ["--language", String(code.prefix(2))]))
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try pm.run(["l10n", "check", dir]).status == 0)
        let env = ["PM_LOCALIZATION_DIR": dir]
        let typed: Set<String> = ["report", "tomorrow", "ffff", "pseudo"]
        let added = try pm.run(["add", "Report", "--due", "tomorrow"], env)
        #expect(added.status == 0, "\(added.stderr)")
        for (arguments, stream) in [
            (["list"], 1), (["history"], 1), (["show", "ffff"], 2), (["--help"], 1), (["add", "--help"], 1), (["status"], 1),
        ] {
            let run = try pm.run(arguments, env.merging(["COLUMNS": "80"]) { $1 })
            let text = stream == 1 ? run.stdout : run.stderr
            // (What is shown is short: a report of the whole accented text is lost on the way.)
            #expect(text.contains("~"), "\(arguments): not in the pseudo-language")
            #expect(englishLeft(text, besides: typed).isEmpty, "\(arguments): \(englishLeft(text, besides: typed))")
        }
        // The board at 80 columns: every line fits, and its frame holds.
        let session = try BoardTmuxTests.Session(pm: pm, width: 80, height: 24, language: language, extra: env)
        defer { session.close() }
        #expect(session.waitFor { $0.contains("[ŢÖÐÖ ~]") }, "the board's columns")
        let screen = session.screen
        #expect(englishLeft(screen, besides: typed).isEmpty, "\(englishLeft(screen, besides: typed))")
        #expect(screen.split(separator: "\n").allSatisfy { TerminalCells.width(of: String($0)) <= 80 })
    }
}
