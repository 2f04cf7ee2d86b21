import ArgumentParser
import Testing

@testable import PMCLI

/// The common commands read without ArgumentParser (``QuickParse``) must be
/// exactly what ArgumentParser reads, field by field, or not read at all.
@Suite struct QuickParseTests {
    /// Both readings of `arguments`: the quick one (nil when it declines)
    /// and ArgumentParser's (nil when it refuses), each shown whole.
    func readings(_ arguments: [String]) -> (quick: String?, full: String?) {
        let quick = QuickParse.command(arguments).map { String(reflecting: $0) }
        let full = (try? PM.parseAsRoot(arguments)).map { String(reflecting: $0) }
        return (quick, full)
    }

    @Test func theCommonCommandLinesAreReadAsArgumentParserReadsThem() {
        let lines: [[String]] = [
            ["add", "Write the report"], ["add", "x", "--due", "2026-12-31", "--body", "b", "--json"],
            ["add", "--due", "demain", "Rapport"], ["add", "", "--board", "/tmp/b.json"], ["add", "보고서", "--body", ""],
            ["list"], ["ls", "--state", "todo", "--state", "done", "--sort", "title", "--grep", "rep", "--color", "never"],
            ["list", "--json", "--board", "b.json"], ["list", "--mine", "--overdue"],
            ["ls", "--to", "ana", "--to", "ji-woo,lee", "--unassigned", "--due-before", "vendredi", "--due-after", "+1d"],
            ["add", "x", "--to", "ana", "--to", "지우"],
            ["add", "x", "--label", "bug", "--label", "ui,back", "--priority", "haute"],
            ["edit", "1a2b", "--priority", "none"], ["show", "1a2b"], ["show", "1a2b", "--color", "always", "--json"],
            ["edit", "1a2b", "--title", "t", "--no-due"], ["edit", "1a2b", "--body", "b", "--due", "+3d", "--json"],
            ["move", "1a2b", "doing"], ["move", "1a2b", "en cours", "--json"], ["start", "1a"], ["done", "1a", "--json"],
            ["delete", "1a"], ["rm", "1a", "--board", "x"], ["history"], ["history", "--limit", "5", "--task", "1a"],
            ["history", "--color", "never", "--json"], ["undo"], ["undo", "--skip", "--json"], ["redo"],
            ["redo", "--board", "b"],
        ]
        for line in lines {
            let (quick, full) = readings(line)
            #expect(quick != nil, "not read quickly: \(line)")
            #expect(full != nil, "refused by ArgumentParser: \(line)")
            #expect(quick == full, "\(line)")
        }
    }

    @Test func theReadingsShowEveryField() {
        let (quick, _) = readings(["add", "Write", "--due", "2026-12-31", "--board", "b.json"])
        let shown = quick ?? ""
        #expect(shown.contains("Write") && shown.contains("2026-12-31") && shown.contains("b.json"), "\(shown)")
        #expect(readings(["add", "a"]).quick != readings(["add", "b"]).quick)
        #expect(readings(["list", "--json"]).quick != readings(["list"]).quick)
        #expect(readings(["list", "--mine"]).quick != readings(["list", "--unassigned"]).quick)
        #expect(readings(["list", "--due-before", "a"]).quick != readings(["list", "--due-after", "a"]).quick)
    }

    @Test func whatItCannotReadExactlyGoesTheWholeWay() {
        let lines: [[String]] = [
            ["add"], ["add", "a", "b"], ["add", "-x"], ["add", "x", "--due"], ["add", "x", "--due", "-1"],
            ["add", "x", "--due=1"],
            ["add", "x", "--json", "--json"], ["add", "x", "--body", "a", "--body", "b"], ["add", "--", "-x"], ["add", "help"],
            ["add", "x", "--help"], ["add", "x", "-h"], ["list", "--sort", "nope"], ["list", "--color", "pink"], ["list", "x"],
            ["history", "--limit", "many"], ["history", "--limit", "-1"], ["move", "1a"], ["edit", "1a", "--no-due", "--no-due"],
            ["status"], ["sync"], ["undo", "--redo"], ["show"], ["list", "--version"],
        ]
        for line in lines { #expect(QuickParse.command(line) == nil, "\(line)") }
    }

    /// Random command lines from the words people type and the ones that
    /// trip parsers: whatever the quick reading takes, ArgumentParser reads
    /// the same.
    @Test func randomCommandLinesAreReadTheSameOrDeclined() {
        let commands = ["add", "list", "ls", "show", "edit", "move", "start", "done", "delete", "rm", "history", "undo", "redo"]
        let words = [
            "x", "1a2b", "todo", "doing", "", "help", "-", "--", "-x", "--json", "--board", "--body", "--due", "--title",
            "--no-due", "--state", "--sort", "--grep", "--color", "--limit", "--task", "--skip", "always", "title", "5", "+3d",
            "demain", "--due=1", "-h", "0", "-5", "due", "never",
        ]
        var generator = SplitMix(seed: 22)
        var readQuickly = 0
        for _ in 0..<600 {
            var line = [commands[Int(generator.next() % UInt64(commands.count))]]
            for _ in 0..<Int(generator.next() % 6) { line.append(words[Int(generator.next() % UInt64(words.count))]) }
            let (quick, full) = readings(line)
            guard let quick else { continue }
            readQuickly += 1
            #expect(quick == full, "\(line)")
        }
        #expect(readQuickly > 30)
    }
}

/// A small deterministic generator (SplitMix64).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
