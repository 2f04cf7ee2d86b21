import Foundation
import Testing

/// What a Linux user expects of a command-line tool (issue 12, part 5).
@Suite struct ConventionsTests {
    @Test func aNewBoardIsAnnouncedOnceAndATypoInBoardIsSaid() throws {
        let pm = PMBinary(language: "fr_FR.UTF-8")
        let first = try pm.run(["add", "Un"])
        #expect(first.status == 0)
        #expect(first.stderr == "Nouveau tableau créé : \(pm.boardPath).\n")
        let second = try pm.run(["add", "Deux"])
        #expect(second.status == 0 && second.stderr.isEmpty, "announced once: \(second.stderr)")
        // --board naming nothing: said, nothing created, the empty board shown.
        let typo = pm.home.file("bord.json")
        let list = try pm.run(["list", "--board", typo])
        #expect(list.status == 0)
        #expect(list.stderr.contains("n’existe pas encore") && list.stderr.contains(typo))
        #expect(!FileManager.default.fileExists(atPath: typo))
        // The board pm was meant to use is untouched and not announced again.
        #expect(try pm.run(["list"]).stderr.isEmpty)
        // board.json lost beside its log: made again from the log, never announced as new.
        try FileManager.default.removeItem(atPath: pm.boardPath)
        let again = try pm.run(["add", "Trois"])
        #expect(again.status == 0 && again.stderr.isEmpty, "not a new board: \(again.stderr)")
        let titles = try pm.run(["list"]).stdout
        #expect(titles.contains("Un") && titles.contains("Deux") && titles.contains("Trois"), "\(titles)")
    }

    /// `pm list | less` on a wide terminal: the width is the terminal's, read
    /// from the controlling terminal when standard output is a pipe; COLUMNS wins.
    @Test func thePipedWidthIsTheTerminals() throws {
        var pm = PMBinary()
        pm.environment["COLUMNS"] = nil
        try pm.useSampleBoard()
        let command = "stty cols 132 rows 40; '\(PMBinary.path)' list --color never | cat"
        let run = try pm.run(["-q", "-e", "-c", command, "/dev/null"], [:], binary: "/usr/bin/script")
        let lines = run.stdout.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n")
        let rule = try #require(lines.first { $0.hasPrefix("─") })
        #expect(rule.count > 100 && rule.count <= 132, "\(rule.count) cells: \(run.stdout)")
        #expect(!run.stdout.contains("pm undo"), "a pipe gets no undo hint")
        let narrow = try pm.run(
            ["-q", "-e", "-c", "stty cols 132; COLUMNS=60 '\(PMBinary.path)' list --color never | cat", "/dev/null"], [:],
            binary: "/usr/bin/script")
        let narrowLines = narrow.stdout.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n")
        let narrowRule = try #require(narrowLines.first { $0.hasPrefix("─") }, "\(narrow.stdout)")
        #expect(narrowRule.count <= 60)
        // No terminal at all: 80.
        let plain = try pm.run(["list", "--color", "never"])
        let plainRule = try #require(plain.stdout.split(separator: "\n").first { $0.hasPrefix("─") })
        #expect(plainRule.count <= 80 && plainRule.count > 70)
    }
}
