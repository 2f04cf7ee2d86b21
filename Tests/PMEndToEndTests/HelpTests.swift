import Foundation
import PMICU
import Testing

/// Help and usage errors are pm's own, in the reader's language: no English
/// word of pm's English table reaches a French or Korean reader, and every
/// help line fits 80 cells at 80 columns (Korean counts two per syllable).
@Suite struct HelpTests {
    /// Every command path, from ArgumentParser's definitions: [], [add], [remote, add]…
    static let paths: [[String]] = {
        guard let run = try? PMBinary().run(["--experimental-dump-help"]),
            let json = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
            let root = json["command"] as? [String: Any]
        else { return [] }
        var paths: [[String]] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            paths.append(path)
            // Hidden commands (pm __complete, pm __generate) are the shell's and the build's, not a reader's.
            for child in command["subcommands"] as? [[String: Any]] ?? [] where child["shouldDisplay"] as? Bool ?? true {
                walk(child, path + [child["commandName"] as? String ?? ""])
            }
        }
        walk(root, [])
        return paths
    }()

    /// English words of pm's own English help and usage messages; a word that
    /// is also French (`options`, `date`, `arguments`…) or a name typed as is
    /// (commands, option values, product names) is not counted.
    static let englishWords: Set<String> = {
        let table = PMBinary.packageRoot.appendingPathComponent("Localization/en.lproj/Localizable.strings")
        let text = (try? String(contentsOf: table, encoding: .utf8)) ?? ""
        var words = Set<String>()
        for line in text.split(separator: "\n")
        where line.hasPrefix("\"help.") || line.hasPrefix("\"usage.") || line.hasPrefix("\"error.usage") {
            guard let equals = line.range(of: "\" = \"") else { continue }
            words.formUnion(HelpTests.words(in: String(line[equals.upperBound...])))
        }
        // Typed as is in every language, or spelled the same in French.
        let typed: Set<String> = [
            "pm", "json", "git", "ssh", "https", "cron", "auto", "always", "never", "due", "title", "created", "todo",
            "doing", "done", "help", "version", "board", "body", "options", "arguments", "date", "format", "local",
            "terminal", "description", "dropbox", "nextcloud", "syncthing", "icalendar", "unique", "standard", "accents",
            "interruption", "ics", "l10n", "tables", "plural", "kanban", "copies", "shell", "argument", "notification",
            "service", "bash", "zsh", "fish", "script", "scripts", "annotations", "page", "web", "en", "tab",
            // `pm serve`: a port and an IP address are named so in French; "machine" too.
            "port", "ip", "machine", "https", "pem",
            // Taskwarrior's command, typed as is (`task export`).
            "task",
            // `pm check`'s actions, typed as is; "place" is French too.
            "undone", "rename", "place", "priority", "action",
            // iCalendar's name for a recurring rule, typed as is (`FREQ=WEEKLY`); "occurrence" is French too.
            "rrule", "freq", "weekly", "byday", "mo", "occurrence",
            // Language codes, typed as is (`pm l10n new de`, `pseudo`).
            "de", "ja", "es", "br", "xa", "pseudo", "table", "message", "code",
        ]
        return words.subtracting(typed)
    }()

    /// Lowercased ASCII-only words of at least two letters, leaving out option
    /// names, paths, URLs, environment variables and commands shown as code.
    static func words(in text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "(" || $0 == ")" || $0 == "," }).compactMap { token in
            let word = token.trimmingCharacters(in: CharacterSet(charactersIn: ".:;'\"«»!?<>[]|…"))
            if word.hasPrefix("-") || word.hasPrefix("+") || word.contains(where: { "/$_@*.=%\\:".contains($0) }) { return nil }
            guard word.count >= 2, word.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
            // "ID" in capitals is Korean's own word for an identifier (사용자 ID), not English left untranslated.
            if word == "ID" { return nil }
            return word.lowercased()
        }
    }

    func commandNames() -> Set<String> { Set(Self.paths.flatMap { $0 }) }

    func english(in text: String) -> [String] {
        Self.words(in: text).filter { Self.englishWords.contains($0) && !commandNames().contains($0) }
    }

    @Test(arguments: ["fr_FR.UTF-8", "ko_KR.UTF-8"])
    func everyHelpIsInTheReadersLanguageAndFits80Cells(language: String) throws {
        #expect(Self.paths.count >= 20, "the command tree was read")
        #expect(Self.englishWords.contains("show") && Self.englishWords.contains("default"), "the word list is not empty")
        let pm = PMBinary(language: language)
        for path in Self.paths {
            let help = try pm.run(path + ["--help"], ["COLUMNS": "80"])
            #expect(help.status == 0, "\(path): \(help.stderr)")
            #expect(help.stdout.count > 40, "\(path)")
            #expect(english(in: help.stdout).isEmpty, "\(language) \(path): \(english(in: help.stdout))\n\(help.stdout)")
            for line in help.stdout.split(separator: "\n") {
                #expect(TerminalCells.width(of: String(line)) <= 80, "\(language) \(path): \(line)")
            }
            // The same help however it is asked for.
            let asked = try pm.run(["help"] + path, ["COLUMNS": "80"])
            #expect(asked.stdout == help.stdout, "pm help \(path)")
            #expect(try pm.run(path + ["-h"], ["COLUMNS": "80"]).stdout == help.stdout, "\(path) -h")
        }
        for heading in ["OVERVIEW", "USAGE", "OPTIONS", "SUBCOMMANDS", "Show help information", "(default:"] {
            let root = try pm.run(["--help"]).stdout + pm.run(["history", "--help"]).stdout
            #expect(!root.contains(heading), "\(heading)")
        }
    }

    @Test func helpWrapsToTheTerminalAndKeepsEnglishForEnglish() throws {
        let pm = PMBinary()
        let wide = try pm.run(["add", "--help"], ["COLUMNS": "200"]).stdout
        let narrow = try pm.run(["add", "--help"], ["COLUMNS": "50"]).stdout
        #expect(wide.contains("Usage: pm add <title> [--body <body>] [--due <date>]"))
        #expect(wide.contains("Options:") && wide.contains("-h, --help"))
        #expect(narrow.split(separator: "\n").allSatisfy { TerminalCells.width(of: String($0)) <= 50 })
        #expect(narrow.split(separator: "\n").count > wide.split(separator: "\n").count)
        let history = try pm.run(["history", "--help"]).stdout
        #expect(history.contains("(default: 20)"))
        let french = try PMBinary(language: "fr_FR.UTF-8").run(["history", "--help"]).stdout
        #expect(french.contains("(par défaut : 20)") && french.contains("--limit <nombre>"))
        // pm alone shows the commands, and exits 0.
        let root = try pm.run([])
        #expect(root.status == 0 && root.stdout.contains("Commands:") && root.stdout.contains("  start "))
        // Only the options a command honours (DESIGN.md §3).
        #expect(!(try pm.run(["export", "ics", "--help"]).stdout.contains("--json")))
        #expect(!(try pm.run(["add", "--help"]).stdout.contains("--color")))
        #expect(try pm.run(["list", "--help"]).stdout.contains("--color auto|always|never"))
        #expect(try pm.run(["export", "ics", "--json"]).status == 64)
    }

    /// Wrong command lines: each says what is wrong in the reader's language,
    /// with the command's help to run, exit 64, and nothing on disk changes.
    @Test(arguments: ["en_US.UTF-8", "fr_FR.UTF-8", "ko_KR.UTF-8"])
    func usageErrorsAreLocalized(language: String) throws {
        let pm = PMBinary(language: language)
        try pm.useSampleBoard()
        let before = pm.boardBytes()
        let wrong: [([String], String)] = [
            (["add"], "<"), (["lsit"], "list"), (["add", "x", "--bdy", "y"], "--body"), (["add", "x", "y"], "y"),
            (["list", "--sort", "size"], "created"), (["history", "--limit", "many"], "many"), (["add", "x", "--due"], "--due"),
            (["list", "--json=yes"], "--json"), (["remote", "add"], "<"), (["move", "3f2a"], "<"), (["frobnicate"], "frobnicate"),
            (["show"], "<"), (["list", "--state"], "--state"), (["l10n", "chek"], "check"),
            (["add", "--colour", "x"], "--colour"),
        ]
        for (arguments, mentioned) in wrong {
            let run = try pm.run(arguments)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty, "\(arguments)")
            #expect(run.stderr.contains(mentioned), "\(language) \(arguments): \(run.stderr)")
            #expect(run.stderr.contains("--help"), "\(arguments): says how to see the help")
            if language != "en_US.UTF-8" {
                let typed = Set(arguments.flatMap { Self.words(in: $0) })
                let found = english(in: run.stderr).filter { !typed.contains($0) }
                #expect(found.isEmpty, "\(language) \(arguments): \(found) in \(run.stderr)")
            }
        }
        #expect(pm.boardBytes() == before)
        // A hostile value is echoed escaped, never raw.
        let escape = try pm.run(["list", "--sort", "\u{1B}[31mred"])
        #expect(escape.status == 64 && !escape.stderr.contains("\u{1B}"))
    }
}
