import Foundation
import Testing

/// pm(1) in three languages and the bash, zsh and fish completions, as
/// shipped in Resources/ and driven through each real shell.
@Suite struct ManualAndCompletionTests {
    static let resources = PMBinary.packageRoot.appendingPathComponent("Resources")

    func shipped(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: Self.resources.appendingPathComponent(path)), as: UTF8.self)
    }

    /// A program the README's prerequisites line installs; its absence fails.
    func require(_ program: String) throws -> String {
        for directory in ["/usr/bin", "/bin", "/usr/local/bin"]
        where FileManager.default.isExecutableFile(atPath: "\(directory)/\(program)") {
            return "\(directory)/\(program)"
        }
        Issue.record("\(program) is missing: install the README's prerequisites line")
        throw CancellationError()
    }

    @Test func theShippedFilesAreGeneratedFromTheDefinitions() throws {
        let pm = PMBinary()
        // A page for every language with a table (a language is a folder).
        let languages = try FileManager.default.contentsOfDirectory(
            atPath: PMBinary.packageRoot.appendingPathComponent("Localization").path
        ).filter { $0.hasSuffix(".lproj") }.map { String($0.dropLast(6)) }
        #expect(languages.count >= 5)
        let pages = languages.map { language in
            (language == "en" ? "man/man1/pm.1" : "man/\(language)/man1/pm.1", ["__generate", "man"], language + ".UTF-8")
        }
        let files: [(String, [String], String)] =
            pages + [
                ("completions/pm.bash", ["__generate", "bash"], "C"), ("completions/_pm", ["__generate", "zsh"], "C"),
                ("completions/pm.fish", ["__generate", "fish"], "C"),
            ]
        for (path, arguments, language) in files {
            let run = try pm.run(arguments, ["LANG": language])
            #expect(run.status == 0)
            #expect(try shipped(path) == run.stdout, "\(path) is stale: run sh Resources/generate.sh")
        }
    }

    /// `pm completion SHELL` prints the script shipped for that shell (a pm
    /// installed without Resources/ gives its own), in any language; any
    /// other shell is a usage error in the reader's language.
    @Test func pmCompletionPrintsTheShippedScripts() throws {
        let pm = PMBinary()
        for (shell, path) in [("bash", "completions/pm.bash"), ("zsh", "completions/_pm"), ("fish", "completions/pm.fish")] {
            for language in ["en_US.UTF-8", "ko_KR.UTF-8"] {
                let run = try pm.run(["completion", shell], ["LANG": language])
                #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
                #expect(try shipped(path) == run.stdout, "\(shell)")
            }
        }
        let wrong = try pm.run(["completion", "tcsh"], ["LANG": "fr_FR.UTF-8"])
        #expect(wrong.status == 64 && wrong.stdout.isEmpty)
        #expect(wrong.stderr.contains("pm completion --help"), "\(wrong.stderr)")
        let help = try pm.run(["completion", "--help"], ["LANG": "ko_KR.UTF-8"]).stdout
        #expect(help.contains("자동 완성 스크립트"), "\(help)")
    }

    /// Each page as man shows it: under LANG=C without a troff warning (the
    /// Korean page says in one line how to read it), exit codes in order,
    /// `pm help` described in the page's language, no French line begun by a
    /// colon, no Korean sentence spread by justification.
    @Test(arguments: [("man/man1/pm.1", "EXIT STATUS"), ("man/fr/man1/pm.1", "CODE DE RETOUR"), ("man/ko/man1/pm.1", "종료 코드")])
    func theManualReadsWellInItsLanguage(path: String, exitHeading: String) throws {
        let man = try require("man")
        let file = Self.resources.appendingPathComponent(path).path
        let pm = PMBinary.withoutFakedClock()
        let plain = try pm.run(["-l", file], ["LANG": "C", "MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"], binary: man)
        #expect(plain.status == 0 && plain.stderr.isEmpty, "\(path) under LANG=C: \(plain.stderr.prefix(300))")
        // A LANG naming a locale this system lacks gives man ASCII too: the page
        // says what to run that needs no locale installed (C.UTF-8 is always
        // there), never "set LANG" to a reader whose LANG is set (issue 44, item 7).
        let language = path.contains("/ko/") ? "ko" : path.contains("/fr/") ? "fr" : "en"
        let missing = try pm.run(
            ["-l", file], ["LANG": "\(language)_ZZ.UTF-8", "MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"], binary: man)
        let hint = missing.stdout.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "  ", with: " ")
        let advice = "LANG=C.UTF-8 man -L \(language) pm"
        if language == "en" {
            #expect(!hint.contains(advice), "\(hint.prefix(300))")
        } else {
            #expect(hint.contains(advice) && hint.contains("dpkg-reconfigure locales"), "\(hint)")
            #expect(plain.stdout.contains(advice), "under LANG=C too: \(plain.stdout.prefix(400))")
        }
        for width in [50, 63, 80] {
            let page = try pm.run(
                ["-l", file], ["LANG": "C.UTF-8", "MANWIDTH": "\(width)", "MANPAGER": "cat", "PAGER": "cat"], binary: man)
            #expect(page.stderr.isEmpty, "\(path): \(page.stderr.prefix(300))")
            let lines = page.stdout.components(separatedBy: "\n")
            for line in lines {
                let text = line.drop { $0 == " " }
                #expect(!(text.first.map { ":;?!»".contains($0) } ?? false), "\(path) at \(width): a line begins with \(line)")
                #expect(!text.contains("Show subcommand") && !text.contains("subcommand"), "\(path): \(line)")
                // Never hyphenated: man's patterns are English ones (issue 44, item 29: tra-duit, TER-MINÉ).
                let last = text.suffix(2)
                #expect(
                    !(last.count == 2 && last.first!.isLetter && "-\u{2010}".contains(last.last!)),
                    "\(path) at \(width): a word cut at \(line)")
            }
            // Sentences (not the two-column lists): no gap of two spaces inside one.
            let description = lines.drop { !$0.hasPrefix("DESCRIPTION") && !$0.hasPrefix("설명") }.dropFirst()
                .prefix { $0.hasPrefix(" ") || $0.isEmpty }
            #expect(
                !description.isEmpty && description.allSatisfy { !$0.drop { $0 == " " }.contains("  ") },
                "\(path): \(description)")
        }
        let page = try pm.run(["-l", file], ["LANG": "C.UTF-8", "MANWIDTH": "80", "MANPAGER": "cat"], binary: man).stdout
        let codes = page.components(separatedBy: "\n").drop { !$0.hasPrefix(exitHeading) }.dropFirst()
            .prefix { $0.hasPrefix(" ") || $0.isEmpty }
            .compactMap { Int($0.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber }) }
        #expect(codes == [0, 1, 64, 65, 70, 73, 74, 75], "\(path): \(codes)")
    }

    @Test func theManualRendersInEachLanguageAndInstallsForManL() throws {
        let man = try require("man")
        let expectations = [
            ("man/man1/pm.1", ["NAME", "SYNOPSIS", "COMMANDS", "EXIT STATUS", "pm move <id> <column>", "PM_BOARD"]),
            ("man/fr/man1/pm.1", ["NOM", "COMMANDES", "CODE DE RETOUR", "pm move <identifiant> <colonne>", "Nouveau"]),
            ("man/ko/man1/pm.1", ["이름", "사용법", "종료 코드", "pm move <ID> <열>", "환경 변수"]),
        ]
        let pm = PMBinary.withoutFakedClock()
        for (path, words) in expectations {
            let file = Self.resources.appendingPathComponent(path).path
            let run = try pm.run(
                ["-l", file], ["LANG": "C.UTF-8", "MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"], binary: man)
            #expect(run.status == 0, "\(path): \(run.stderr)")
            #expect(!run.stderr.contains("warning"), "\(path): \(run.stderr)")
            for word in words where word != "Nouveau" {
                #expect(run.stdout.contains(word), "\(path): \(word)\n\(run.stdout.prefix(600))")
            }
        }
        // The README's install step, into a scratch prefix: man -L fr pm finds the French page.
        let prefix = pm.home.file("prefix")
        let install = try pm.run(
            [Self.resources.appendingPathComponent("install.sh").path],
            ["PREFIX": prefix, "PM_BINARY": PMBinary.path], binary: "/bin/sh")
        #expect(install.status == 0, "\(install.stderr)")
        let environment = [
            "LANG": "C.UTF-8", "PATH": "\(prefix)/bin:/usr/bin:/bin", "MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "80",
        ]
        let french = try pm.run(["-L", "fr", "pm"], environment, binary: man)
        #expect(french.status == 0 && french.stdout.contains("NOM") && french.stdout.contains("COMMANDES"), "\(french.stderr)")
        let korean = try pm.run(["-L", "ko", "pm"], environment, binary: man)
        #expect(korean.status == 0 && korean.stdout.contains("종료 코드"), "\(korean.stderr)")
        let english = try pm.run(["pm"], environment, binary: man)
        #expect(english.status == 0 && english.stdout.contains("EXIT STATUS"), "\(english.stderr)")
        #expect(FileManager.default.fileExists(atPath: prefix + "/share/fish/vendor_completions.d/pm.fish"))
    }

    /// A board with a task in TODO, and the environment the shells run pm in.
    func board(_ language: String) throws -> (PMBinary, String, [String: String]) {
        // Off the faked clock (these read no date that matters: PM_NOW): a
        // shell in tmux cannot open libfaketime's shared clock, which then
        // writes its complaint under the prompt.
        var pm = PMBinary(language: language)
        pm.environment["LD_PRELOAD"] = nil
        let id = try pm.run(["add", "Rapport trimestriel"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let directory = URL(fileURLWithPath: PMBinary.path).deletingLastPathComponent().path
        return (pm, id, ["PATH": "\(directory):/usr/bin:/bin"])
    }

    @Test func bashCompletesCommandsIdsAndColumns() throws {
        let bash = try require("bash")
        let (pm, id, environment) = try board("fr_FR.UTF-8")
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let script =
                "source '\(Self.resources.path)/completions/pm.bash'; COMP_WORDS=(pm \(quoted)); COMP_CWORD=\(words.count); _pm; printf '%s\\n' \"${COMPREPLY[@]}\""
            let run = try pm.run(["-c", script], environment, binary: bash)
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["mo"]) == ["move"])
        let st = try complete(["st"])
        #expect(st.contains("start") && st.contains("status"))
        #expect(try complete(["move", ""]) == [id])
        #expect(try complete(["move", id, ""]).contains("EN\\ COURS"))
        #expect(try complete(["move", id, "ter"]) == ["TERMINÉ"])
        #expect(try complete(["list", "--sort", ""]) == ["due", "title", "created", "priority"])
        #expect(try complete(["add", "x", "--d"]) == ["--due"])
        #expect(try complete(["remote", ""]).contains("add"))
    }

    /// What bash inserts is entered as typed: a file name holding `$(…)` or
    /// a name holding braces completes escaped, and Enter neither runs the
    /// command nor expands the braces (issue 43, item 3).
    @Test func bashInsertsFileNamesAndNamesEscapedInATerminal() throws {
        let bash = try require("bash")
        _ = try require("tmux")
        let (pm, id, environment) = try board("en_US.UTF-8")
        #expect(try pm.run(["assign", id, "{a..b}"]).status == 0)
        let folder = pm.home.file("work")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let planted = "x$(touch${IFS}PWN)"
        _ = FileManager.default.createFile(atPath: folder + "/" + planted, contents: Data())
        let session = try BoardTmuxTests.Session(
            pm: pm, width: 120, height: 30, language: "C.UTF-8", extra: environment,
            command: [bash, "--norc", "--noprofile"])
        defer { session.close() }
        // Prompts on the screen (a trailing space is not captured). The
        // prompt is written split in two where it is set, so that the
        // command's own echo — wrapped anywhere, on a loaded machine before
        // bash has even started — never counts as one.
        func prompts(_ screen: String) -> Int {
            screen.split(separator: "\n").filter { $0 == "PMPROMPT>" || $0.hasPrefix("PMPROMPT> ") }.count
        }
        #expect(session.waitFor(10) { $0.contains("bash-") || $0.contains("$") }, "bash is ready: \(session.screen)")
        try session.raw("cd '\(folder)'; source '\(Self.resources.path)/completions/pm.bash'; PS1='PM''PROMPT> '")
        try session.keys("Enter")
        #expect(session.waitFor(10) { prompts($0) == 1 }, "\(session.screen)")
        try session.raw("pm merge x")
        try session.keys("Tab")
        #expect(session.waitFor(10) { $0.contains("pm merge x\\$\\(touch\\$\\{IFS\\}PWN\\)") }, "\(session.screen)")
        try session.keys("Enter")
        // pm merge ran on the file of that name, its name as typed.
        #expect(session.waitFor(10) { prompts($0) == 2 }, "\(session.screen)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/PWN"), "the name's command ran: \(session.screen)")
        try session.raw("pm unassign \(id) {")
        try session.keys("Tab")
        #expect(session.waitFor(10) { $0.contains("pm unassign \(id) \\{a..b\\}") }, "\(session.screen)")
        try session.keys("Enter")
        #expect(session.waitFor(10) { prompts($0) == 3 }, "\(session.screen)")
        let show = try pm.run(["show", id, "--json"]).stdout
        #expect(!show.contains("{a..b}"), "one name, {a..b}, taken away whole: \(show)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/PWN"))
    }

    @Test func fishCompletesIdsWithTitlesAndColumnsInTheReadersLanguage() throws {
        let fish = try require("fish")
        let (pm, id, environment) = try board("ko_KR.UTF-8")
        func complete(_ line: String) throws -> String {
            let script = "source '\(Self.resources.path)/completions/pm.fish'; complete -C '\(line)'"
            let run = try pm.run(["--no-config", "-c", script], environment, binary: fish)
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout
        }
        #expect(try complete("pm move ") == "\(id)\tRapport trimestriel\n")
        #expect(try complete("pm move \(id) 진") == "진행 중\n", "each column once, in the reader's language")
        #expect(try complete("pm move \(id) do") == "doing\t진행 중\ndone\t완료\n", "the script names when they are typed")
        #expect(try complete("pm mo").contains("move\t작업을 다른 열로 옮깁니다"))
        #expect(try complete("pm list --sort ").contains("created"))
    }

    @Test func zshCompletesIdsAndColumnsInATerminal() throws {
        let zsh = try require("zsh")
        let (pm, id, environment) = try board("fr_FR.UTF-8")
        _ = try require("tmux")
        var extra = environment
        extra["LANGUAGE"] = "fr"
        let session = try BoardTmuxTests.Session(
            pm: pm, width: 120, height: 30, language: "C.UTF-8", extra: extra, command: [zsh, "-f"])
        defer { session.close() }
        try session.raw("fpath=('\(Self.resources.path)/completions' $fpath); autoload -U compinit; compinit -u; PS1='> '")
        try session.keys("Enter")
        #expect(session.waitFor { $0.contains("\n>") })
        try session.raw("pm move ")
        try session.keys("Tab")
        #expect(session.waitFor(6) { $0.contains("pm move \(id)") }, "the only id is inserted: \(session.screen)")
        try session.keys("Tab")
        #expect(session.waitFor(6) { $0.contains("EN COURS") && $0.contains("TERMINÉ") }, "columns in French: \(session.screen)")
    }
}
