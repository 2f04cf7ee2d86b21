import Foundation
import Testing

/// A word pm does not know is a usage error wherever it is typed (issue 44,
/// item 19): `pm nope` was refused, but `pm help nope`, `pm nope --help`
/// and `pm help remote nope` printed a help page and exit 0.
@Suite struct UnknownWordTests {
    @Test(arguments: [
        (["help", "nope"], "pm --help"), (["nope", "--help"], "pm --help"), (["help", "remote", "nope"], "pm remote --help"),
        (["help", "list", "nope"], "pm list --help"), (["--help", "nope"], "pm --help"), (["-h", "nope"], "pm --help"),
        (["completion", "nope"], "pm completion --help"),
    ])
    func anUnknownWordInAHelpRequestIsAUsageError(arguments: [String], see: String) throws {
        for language in ["en_US.UTF-8", "fr_FR.UTF-8", "ko_KR.UTF-8"] {
            let pm = PMBinary(language: language)
            let run = try pm.run(arguments)
            #expect(run.status == 64 && run.stdout.isEmpty, "\(arguments) \(language): \(run.status)")
            #expect(run.stderr.contains("nope") && run.stderr.contains(see), "\(run.stderr)")
        }
    }

    /// The command pm suggests is quoted as the reader's language quotes
    /// (issue 44, item 22: « list », not 'list', in French).
    @Test(arguments: [
        ("en_US.UTF-8", "Did you mean 'list'?"), ("fr_FR.UTF-8", "Vouliez-vous dire « list » ?"),
        ("ko_KR.UTF-8", "'list'를 입력하려고 하셨습니까?"),
    ])
    func aSuggestionIsQuotedAsTheLanguageQuotes(language: String, suggestion: String) throws {
        let run = try PMBinary(language: language).run(["lsit"])
        #expect(run.status == 64 && run.stderr.contains(suggestion), "\(run.stderr)")
    }

    @Test func helpForWhatExistsStillWorks() throws {
        let pm = PMBinary()
        for arguments in [["help"], ["help", "remote"], ["remote", "--help"], ["show", "abcd", "--help"], ["help", "help"]] {
            let run = try pm.run(arguments)
            #expect(run.status == 0 && !run.stdout.isEmpty && run.stderr.isEmpty, "\(arguments): \(run.stderr)")
        }
        // `pm --help add` is `pm help add`, as `git --help add` is.
        #expect(try pm.run(["--help", "add"]).stdout == pm.run(["help", "add"]).stdout)
        // A shell pm completes is named among the choices.
        let shell = try pm.run(["completion", "nope"])
        #expect(shell.stderr.contains("use one of: bash, zsh, fish"), "\(shell.stderr)")
    }
}

/// English left in Korean messages (issue 44, item 28): the placeholder a
/// reader replaces is written in their language, as the help writes it.
@Suite struct PlaceholderWordTests {
    @Test func koreanMessagesNameTheTargetInKorean() throws {
        let pm = PMBinary(language: "ko_KR.UTF-8")
        for arguments in [["remote"], ["sync"]] {
            let run = try pm.run(arguments)
            let text = run.stdout + run.stderr
            #expect(text.contains("pm remote add <대상>") && !text.contains("TARGET"), "\(arguments): \(text)")
        }
    }
}

/// French typography after a colon (issue 44, item 21): the table's rule
/// (`grammar.afterColon`) holds for errors too — `pm : erreur : aucune
/// tâche…`, not `Aucune`; a word in capitals (a name) is kept.
@Suite struct FrenchErrorCaseTests {
    @Test func frenchErrorsBeginWithASmallLetterAfterTheColon() throws {
        let pm = PMBinary(language: "fr_FR.UTF-8")
        try pm.run(["add", "t"])
        let notFound = try pm.run(["show", "abcd"])
        #expect(notFound.stderr.hasPrefix("pm : erreur : aucune tâche"), "\(notFound.stderr)")
        var bad = pm
        bad.environment["PM_LOCK_TIMEOUT"] = "x"
        let variable = try bad.run(["list"])
        #expect(variable.stderr.hasPrefix("pm : erreur : la variable"), "\(variable.stderr)")
        // English keeps its capital.
        let english = try PMBinary().run(["show", "abcd"])
        #expect(english.stderr.hasPrefix("pm: error: No task"), "\(english.stderr)")
    }
}

/// Agreement (issue 44, item 23): "Cible aucun" — the word for nothing
/// agrees with its row's noun, feminine for la cible.
@Suite struct StatusAgreementTests {
    @Test func frenchStatusAgreesWithEachRow() throws {
        let run = try PMBinary(language: "fr_FR.UTF-8").run(["status"])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("Cible") && $0.hasSuffix(" aucune") }, "\(run.stdout)")
        #expect(lines.contains { $0.hasPrefix("Conflits") && $0.hasSuffix(" aucun") }, "\(run.stdout)")
    }
}

/// French typography (issue 44, item 22): a no-break space before `:` and
/// a narrow one before `; ? !` and inside « », so no line ever begins with
/// the punctuation of the line before, in help wrapped at any width.
@Suite struct FrenchTypographyTests {
    @Test func theTableSpacesPunctuationWithNoBreakSpaces() throws {
        let path = #filePath.replacingOccurrences(
            of: "Tests/PMEndToEndTests/UnknownWordTests.swift", with: "Localization/fr.lproj/Localizable.strings")
        let values = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("\"") }.map { String($0.split(separator: "=", maxSplits: 1).last ?? "") }
        // (" ?\u{A0}:" is the key ? named in a list of keys.)
        let plain = values.filter { value in
            let text = value.replacingOccurrences(of: " ?\u{A0}:", with: "")
            return [" :", " ;", " ?", " !", "« ", " »"].contains { text.contains($0) }
        }
        #expect(plain.isEmpty, "\(plain.prefix(5))")
        // Thousands are grouped by a narrow no-break space (1 000 with U+202F), as pm writes counts.
        let grouped = values.filter { $0.contains(/\d[ \u{A0}]\d{3}/) }
        #expect(grouped.isEmpty, "\(grouped.prefix(5))")
    }

    /// Counts of a thousand and more are grouped as the reader's language
    /// groups them (issue 44, item 22): `1 200` (U+202F) in French, `1,200`
    /// in English and Korean.
    @Test(arguments: [
        ("fr_FR.UTF-8", "1\u{202F}200 tâches"), ("en_US.UTF-8", "1,200 tasks"), ("ko_KR.UTF-8", "작업 1,200개"),
    ])
    func thousandsAreGroupedAsTheLanguageDoes(language: String, count: String) throws {
        let pm = PMBinary(language: language)
        let sheet = pm.home.file("many.csv")
        try ("title\n" + (1...1200).map { "Task \($0)\n" }.joined()).write(toFile: sheet, atomically: true, encoding: .utf8)
        let run = try pm.run(["import", "csv", sheet, "--dry-run"])
        #expect(run.status == 0 && run.stdout.contains(count), "\(run.stdout.suffix(300))")
    }

    @Test(arguments: [40, 57, 80]) func helpNeverBeginsALineWithPunctuation(width: Int) throws {
        let pm = PMBinary(language: "fr_FR.UTF-8")
        for command in [
            ["--help"], ["sync", "--help"], ["add", "--help"], ["remote", "--help"], ["import", "trello", "--help"],
        ] {
            let help = try pm.run(command, ["COLUMNS": String(width)]).stdout
            #expect(help.contains("\u{A0}:"), "\(command)")
            let bad = help.split(separator: "\n").filter {
                guard let first = $0.drop(while: { $0 == " " }).first else { return false }
                return ":;?!»".contains(first)
            }
            #expect(bad.isEmpty, "\(command) at \(width): \(bad)")
        }
    }
}
