import Foundation
import Testing

/// `pm merge FILE...` through the binary: two copies of a board changed
/// apart, then folded into each other, agree byte for byte and keep every value.
@Suite struct MergeEndToEndTests {
    func logPath(_ board: String) -> String { String(board.dropLast(5)) + ".events.jsonl" }

    @Test func twoCopiesChangedApartMergeToTheSameBoard() throws {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        let a = pm.home.file("a/board.json")
        let b = pm.home.file("b/board.json")
        let id = try pm.run(["add", "Shared", "--board", a]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try pm.run(["merge", a, "--board", b]).stdout.contains("Merged 1 new change"))
        try pm.run(["edit", id, "--title", "Camille's", "--board", a], ["PM_USER": "camille"])
        try pm.run(["edit", id, "--body", "notes", "--board", a], ["PM_USER": "camille"])
        try pm.run(["edit", id, "--title", "Ji-woo's", "--board", b], ["PM_USER": "ji-woo"])
        try pm.run(["move", id, "doing", "--board", b], ["PM_USER": "ji-woo"])
        let other = try pm.run(["add", "Only on B", "--board", b]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try pm.run(["merge", logPath(b), "--board", a]).status == 0)
        #expect(try pm.run(["merge", logPath(a), "--board", b]).status == 0)
        #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b), "byte-identical boards")
        let shown = try #require(
            try JSONSerialization.jsonObject(with: Data(try pm.run(["show", id, "--json", "--board", a]).stdout.utf8))
                as? [String: Any])
        let title = try #require(shown["title"] as? String)
        let conflicts = try #require(shown["conflicts"] as? [String: [String]])
        #expect(Set([title] + (conflicts["title"] ?? [])) == ["Camille's", "Ji-woo's"], "both titles kept")
        #expect(shown["body"] as? String == "notes" && shown["state"] as? String == "doing", "disjoint fields both apply")
        #expect(try pm.run(["show", other, "--board", a]).status == 0)
        for (language, word) in [
            ("en_US.UTF-8", "Conflict: Title"), ("fr_FR.UTF-8", "Conflit\u{00A0}: titre"), ("ko_KR.UTF-8", "충돌: 제목"),
        ] {
            let list = try pm.run(["list", "--board", b], ["LANG": language]).stdout
            #expect(list.contains(word), "\(language): \(list)")
        }
        // Picking the shown title resolves the conflict on every copy.
        try pm.run(["edit", id, "--title", title, "--board", b])
        try pm.run(["merge", logPath(b), "--board", a])
        let after = try pm.run(["show", id, "--json", "--board", a]).stdout
        #expect(!after.contains("conflicts"), "\(after)")
        #expect(try pm.run(["history", "--limit", "1", "--board", a]).stdout.contains("Resolved the conflict on the title"))
        // Merging again changes nothing.
        let bytes = FileManager.default.contents(atPath: a)
        #expect(try pm.run(["merge", logPath(b), "--board", a]).stdout.contains("Merged 0 new changes"))
        #expect(FileManager.default.contents(atPath: a) == bytes)
    }

    /// A hostile or damaged copy: lines that are not events, an event from a
    /// clock years ahead, an escape sequence in a title, a huge body — left
    /// out and counted; the good events still merge; nothing raw reaches the terminal.
    @Test func aHostileCopyMergesOnlyItsGoodEvents() throws {
        let pm = PMBinary()
        let source = pm.home.file("source/board.json")
        try pm.run(["add", "Good one", "--board", source])
        let good = try String(contentsOfFile: logPath(source), encoding: .utf8)
        let line = try #require(good.split(separator: "\n").last.map(String.init))
        func variant(_ id: String, _ change: (String) -> String) -> String {
            change(line.replacingOccurrences(of: #""id":"[0-9a-f-]{36}""#, with: "\"id\":\"\(id)\"", options: .regularExpression))
        }
        let future = variant("11111111-0000-4000-8000-000000000001") {
            $0.replacingOccurrences(of: #""hlc":\[\d+"#, with: "\"hlc\":[253402300799000", options: .regularExpression)
        }
        let escape = variant("11111111-0000-4000-8000-000000000002") {
            $0.replacingOccurrences(of: "Good one", with: "\\u001b]52;c;evil\\u0007")
        }
        let huge = variant("11111111-0000-4000-8000-000000000003") {
            $0.replacingOccurrences(
                of: "\"body\":{\"new\":\"\"", with: "\"body\":{\"new\":\"\(String(repeating: "x", count: 5000))\"")
        }
        let hostile = pm.home.file("hostile.events.jsonl")
        try Data(
            ([line, "garbage", future, escape, huge, "{\"id\": 1}"].joined(separator: "\n")
                + "\n").utf8
        )
        .write(to: URL(fileURLWithPath: hostile))
        let run = try pm.run(["merge", hostile])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Merged 1 new change"), "\(run.stdout)")
        #expect(run.stderr.contains("Left out 5 lines") && run.stderr.contains("line 2"), "\(run.stderr)")
        #expect(!run.stderr.contains("\u{1B}") && !run.stdout.contains("\u{1B}"))
        let list = try pm.run(["list"]).stdout
        #expect(list.contains("Good one") && !list.contains("evil"))
    }

    @Test func anotherBoardsCopyIsRefusedAndNothingChanges() throws {
        let pm = PMBinary()
        try pm.run(["add", "Mine"])
        let theirs = pm.home.file("theirs/board.json")
        try pm.run(["add", "Theirs", "--board", theirs])
        let before = pm.boardBytes()
        let run = try pm.run(["merge", theirs], ["LANG": "fr_FR.UTF-8"])
        #expect(run.status == 65 && run.stderr.contains("appartient à un autre tableau"), "\(run.stderr)")
        #expect(pm.boardBytes() == before)
        let bareLog = try pm.run(["merge", logPath(theirs)])
        #expect(bareLog.status == 65 && bareLog.stderr.contains("another board's log"), "\(bareLog.stderr)")
        #expect(pm.boardBytes() == before)
        let old = pm.home.file("old.json")
        try FileManager.default.copyItem(
            at: PMBinary.packageRoot.appendingPathComponent("Resources/sample-board.json"), to: URL(fileURLWithPath: old))
        let legacy = try pm.run(["merge", old])
        #expect(legacy.status == 65 && legacy.stderr.contains("pm 0.1"), "\(legacy.stderr)")
        #expect(pm.boardBytes() == before)
    }

    /// A board in a Syncthing or Dropbox folder: the tool's conflicted copy
    /// of the log beside the board is merged by the next change and moved
    /// into .pm-merged/, never deleted; a copy of another board is left alone.
    @Test func conflictedCopiesBesideTheBoardAreMergedByTheNextChange() throws {
        let pm = PMBinary()
        try pm.run(["add", "Here"])
        let log = logPath(pm.boardPath)
        let other = pm.home.file("other/board.json")
        try pm.run(["merge", log, "--board", other])
        try pm.run(["add", "Made on the laptop", "--board", other])
        let copy = pm.home.file("board.events.sync-conflict-20261122-101010-ABCDEF1.jsonl")
        try FileManager.default.copyItem(atPath: logPath(other), toPath: copy)
        let dropbox = pm.home.file("board (Ji-woo's conflicted copy 2026-11-22).json")
        try pm.run(["add", "Another board", "--board", pm.home.file("x/board.json")])
        try FileManager.default.copyItem(atPath: pm.home.file("x/board.json"), toPath: dropbox)
        try FileManager.default.copyItem(atPath: logPath(pm.home.file("x/board.json")), toPath: logPath(dropbox))
        let run = try pm.run(["add", "Next change"])
        #expect(run.status == 0 && run.stderr.contains("sync-conflict") && run.stderr.contains("1 new change"), "\(run.stderr)")
        let titles = try pm.run(["list", "--json"]).stdout
        #expect(titles.contains("Made on the laptop") && titles.contains("Next change") && !titles.contains("Another board"))
        #expect(!FileManager.default.fileExists(atPath: copy))
        #expect(FileManager.default.fileExists(atPath: pm.home.file(".pm-merged/" + (copy as NSString).lastPathComponent)))
        #expect(FileManager.default.fileExists(atPath: dropbox), "another board's copy is left where it is")
    }
}
