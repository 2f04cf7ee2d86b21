import Foundation
import Testing

/// The event log through the binary: the log is the truth, `board.json` its fold.
@Suite struct EventLogEndToEndTests {
    func logPath(_ pm: PMBinary) -> String { String(pm.boardPath.dropLast(5)) + ".events.jsonl" }

    func logText(_ pm: PMBinary) -> String {
        String(decoding: FileManager.default.contents(atPath: logPath(pm)) ?? Data(), as: UTF8.self)
    }

    /// A pm 0.1 board converts on its first change, keeping every task and
    /// every past event: history reads the same in every language.
    @Test func aSchemaOneBoardConvertsAndReadsTheSame() throws {
        let pm = PMBinary()
        try pm.useSampleBoard()
        let languages = ["en_US.UTF-8", "fr_FR.UTF-8", "ko_KR.UTF-8"]
        let zones = ["Asia/Seoul", "Europe/Paris", "America/Los_Angeles"]
        var before: [String: String] = [:]
        for language in languages {
            for zone in zones {
                before[language + zone] = try pm.run(["history", "--limit", "100"], ["LANG": language, "TZ": zone]).stdout
            }
        }
        let tasksBefore = try pm.run(["list", "--json"]).stdout
        let showBefore = try pm.run(["show", "3f2a", "--json"]).stdout
        #expect(try pm.run(["add", "converts the board"]).status == 0)
        #expect(try pm.run(["undo"]).status == 0)
        let board = String(decoding: pm.boardBytes() ?? Data(), as: UTF8.self)
        #expect(board.contains("\"schemaVersion\": 2") && !board.contains("\"history\""), "\(board.prefix(300))")
        #expect(try pm.run(["list", "--json"]).stdout == tasksBefore, "every task kept")
        #expect(try pm.run(["show", "3f2a", "--json"]).stdout == showBefore)
        for language in languages {
            for zone in zones {
                let after = try pm.run(["history", "--limit", "100"], ["LANG": language, "TZ": zone]).stdout
                let old = after.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).joined(separator: "\n")
                #expect(old == before[language + zone], "\(language) \(zone): history changed by the conversion")
            }
        }
        // The log alone rebuilds the board: a copy with board.json removed.
        try FileManager.default.removeItem(atPath: pm.boardPath)
        let copy = PMBinary()
        try FileManager.default.copyItem(atPath: logPath(pm), toPath: logPath(copy))
        #expect(try copy.run(["list", "--json"]).stdout == tasksBefore, "the events alone rebuild every task")
    }

    /// A crash mid-append leaves a line without its newline: never committed,
    /// skipped by readers, cut off by the next writer.
    @Test func aTornLastLineIsDroppedAndADamagedOneRefusedWithItsNumber() throws {
        let pm = PMBinary()
        try pm.run(["add", "one"])
        try pm.run(["add", "two"])
        let handle = try #require(FileHandle(forWritingAtPath: logPath(pm)))
        handle.seekToEndOfFile()
        handle.write(Data("{\"at\":\"2026-11-21T10:00:00.000Z\",\"by\":\"x\",\"hlc\":[1,".utf8))
        try handle.close()
        #expect(try pm.run(["list", "--json"]).stdout.contains("two"))
        #expect(try pm.run(["history"]).status == 0)
        #expect(try pm.run(["add", "three"]).status == 0)
        let lines = logText(pm).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5 && lines.last == "", "the torn line was cut off: \(lines.count)")

        // Damage in the middle (bytes flipped): refused with its line number
        // wherever a reader needs that line, never rewritten.
        #expect(try pm.run(["checkpoint"]).status == 0)
        var text = logText(pm)
        text = text.replacingOccurrences(of: "{\"at\":", with: "{\"at\",")
        try Data(text.utf8).write(to: URL(fileURLWithPath: logPath(pm)))
        // board.json already includes every line, so listing and adding need none of them…
        #expect(try pm.run(["list"]).status == 0)
        #expect(try pm.run(["add", "four"]).status == 0)
        // …but history reads them.
        let run = try pm.run(["history", "--limit", "10"])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("event log") && run.stderr.contains("line 4"), "\(run.stderr)")
        #expect(logText(pm).hasPrefix(text), "never rewritten, only appended to")
    }

    /// A `board.json` copied alone (no log): it reads as it is, and its first
    /// change gives it a log whose first events are its tasks.
    @Test func aBoardCopiedWithoutItsLogStillWorks() throws {
        let pm = PMBinary()
        try pm.run(["add", "original", "--body", "b"])
        let copy = pm.home.file("copy.json")
        try FileManager.default.copyItem(atPath: pm.boardPath, toPath: copy)
        #expect(try pm.run(["list", "--json", "--board", copy]).stdout.contains("original"))
        #expect(try pm.run(["add", "in the copy", "--board", copy]).status == 0)
        let tasks = try pm.run(["list", "--json", "--board", copy]).stdout
        #expect(tasks.contains("original") && tasks.contains("in the copy"))
        #expect(FileManager.default.fileExists(atPath: pm.home.file("copy.events.jsonl")))
    }

    /// A newer pm's board: read as far as possible, never written.
    @Test func aNewerSchemaIsReadAndNeverWritten() throws {
        let pm = PMBinary()
        try pm.run(["add", "kept"])
        let text = String(decoding: pm.boardBytes() ?? Data(), as: UTF8.self)
            .replacingOccurrences(of: "\"schemaVersion\": 2", with: "\"schemaVersion\": 3")
        try Data(text.utf8).write(to: URL(fileURLWithPath: pm.boardPath))
        let log = logText(pm)
        #expect(try pm.run(["list", "--json"]).stdout.contains("kept"))
        let add = try pm.run(["add", "refused"])
        #expect(add.status == 65 && add.stderr.contains("newer pm"), "\(add.stderr)")
        #expect(pm.boardBytes() == Data(text.utf8) && logText(pm) == log)
    }

    /// A change appends one line; the board is its fold.
    @Test func eachChangeAppendsOneCompleteEvent() throws {
        let pm = PMBinary()
        let id = try pm.run(["add", "Write report", "--due", "2026-12-01"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try pm.run(["edit", id, "--title", "Written"])
        try pm.run(["undo"])
        let lines = logText(pm).split(separator: "\n")
        #expect(lines.count == 4 && lines[0].contains("\"kind\":\"board\""), "the board's record, then one line a change")
        #expect(
            lines[3].contains("\"kind\":\"edited\"") && lines[3].contains("\"undoes\":"),
            "an undo is an event naming what it takes back")
        #expect(lines[3].contains("\"title\":{\"new\":\"Write report\",\"old\":\"Written\"}"))
        try pm.run(["redo"])
        for (language, undid, redid) in [
            ("en_US.UTF-8", "Undid: renamed 'Write report' to 'Written'.", "Redid: renamed 'Write report' to 'Written'."),
            (
                "fr_FR.UTF-8", "Modification annulée : le renommage de « Write report » en « Written ».",
                "Modification rétablie : le renommage de « Write report » en « Written »."
            ),
            (
                "ko_KR.UTF-8", "'Write report'의 제목을 'Written'으로 바꾼 것을 되돌렸습니다.",
                "'Write report'의 제목을 'Written'으로 바꾼 것을 다시 실행했습니다."
            ),
        ] {
            let history = try pm.run(["history"], ["LANG": language]).stdout
            #expect(history.contains(undid) && history.contains(redid), "\(language): \(history)")
        }
        let json = try pm.run(["history", "--limit", "2", "--json"]).stdout
        #expect(json.contains("\"redoes\": ") && json.contains("\"undoes\": "), "\(json)")
    }

    /// `pm history --task ID`: one task's events, a deleted task's too, on a
    /// schema-2 board and on a pm 0.1 board before it converts.
    @Test func historyOfOneTask() throws {
        let pm = PMBinary()
        func id(_ run: Run) -> String { run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) }
        let alpha = id(try pm.run(["add", "Alpha"]))
        let beta = id(try pm.run(["add", "Beta"]))
        try pm.run(["move", alpha, "doing"])
        try pm.run(["edit", beta, "--title", "Beta two"])
        for n in 0..<30 { try pm.run(["add", "filler \(n)"]) }
        try pm.run(["move", alpha, "done"])
        try pm.run(["delete", beta])
        let alphaLines = try pm.run(["history", "--task", String(alpha.prefix(6))]).stdout.split(separator: "\n")
        #expect(alphaLines.count == 3 && alphaLines.allSatisfy { $0.contains("'Alpha'") }, "\(alphaLines)")
        #expect(alphaLines.first?.hasSuffix("Moved 'Alpha' from DOING to DONE.") == true)
        let betaLines = try pm.run(["history", "--task", beta]).stdout.split(separator: "\n")
        #expect(betaLines.count == 3 && betaLines.allSatisfy { $0.contains("'Beta") }, "a deleted task keeps its history")
        let limited = try pm.run(["history", "--task", beta, "--limit", "1", "--json"]).stdout
        #expect(limited.components(separatedBy: "\"task\"").count == 2 && limited.contains("\"removed\""), "\(limited)")
        let missing = try pm.run(["history", "--task", "0000"], ["LANG": "fr_FR.UTF-8"])
        #expect(missing.status != 0 && missing.stderr.contains("0000") && missing.stdout.isEmpty, "\(missing.stderr)")
        let invalid = try pm.run(["history", "--task", "xyz"])
        #expect(invalid.status != 0 && invalid.stderr.contains("xyz"))

        let legacy = PMBinary()
        try legacy.useSampleBoard()
        let bytes = legacy.boardBytes()
        let shown = try #require(
            try JSONSerialization.jsonObject(with: Data(try legacy.run(["show", "3f2a", "--json"]).stdout.utf8))
                as? [String: Any])
        let title = try #require(shown["title"] as? String)
        let all = try legacy.run(["history", "--limit", "1000"]).stdout.split(separator: "\n")
        let own = try legacy.run(["history", "--task", "3f2a", "--limit", "1000"]).stdout.split(separator: "\n")
        #expect(!own.isEmpty && own.count < all.count && own.allSatisfy { $0.contains(title) }, "\(own)")
        #expect(legacy.boardBytes() == bytes, "reading history never converts the board")
    }

    /// The log is the commit: a change leaves board.json as it was and
    /// appends one line; every command sees it; `pm checkpoint` writes the
    /// file, says so in the reader's language, and then has nothing to do.
    @Test func aChangeAppendsOnlyAndACheckpointWritesTheBoardFile() throws {
        let pm = PMBinary()
        try pm.run(["add", "first"])
        let before = pm.boardBytes()
        let lines = logText(pm).split(separator: "\n").count
        try pm.run(["add", "second"])
        #expect(pm.boardBytes() == before, "board.json untouched by a change")
        #expect(logText(pm).split(separator: "\n").count == lines + 1)
        let list = try pm.run(["list", "--json"]).stdout
        #expect(list.contains("second"), "\(list)")
        #expect(try pm.run(["checkpoint"]).status == 0 && pm.boardBytes() != before)
        for (language, words) in [
            ("en_US.UTF-8", "up to date: 1 change"), ("fr_FR.UTF-8", "mis à jour : 1 modification"),
            ("ko_KR.UTF-8", "변경 1개를 반영했습니다"),
        ] {
            try pm.run(["add", language])
            let run = try pm.run(["checkpoint"], ["LANG": language])
            #expect(run.status == 0 && run.stdout.contains(words), "\(language): \(run.stdout)\(run.stderr)")
            #expect(String(decoding: pm.boardBytes() ?? Data(), as: UTF8.self).contains(language))
        }
        let again = try pm.run(["checkpoint"])
        #expect(again.status == 0 && again.stdout.contains("already up to date"), "\(again.stdout)")
        let newer = PMBinary()
        try Data("{\"id\": \"00c0ffee-0000-4000-8000-00000000b0a4\", \"schemaVersion\": 9, \"tasks\": []}".utf8).write(
            to: URL(fileURLWithPath: newer.boardPath))
        let refused = try newer.run(["checkpoint"])
        #expect(refused.status == 65 && refused.stderr.contains("newer pm"), "\(refused.stderr)")
    }

    /// The conversion writes the log in merge order (hybrid clock, then
    /// replica, then id) and says so in the marks: no batch to sort, so
    /// history reads the converted past from the log's end like any other
    /// (a 10k board's history took 250 ms sorting it all, now 20 ms), and
    /// shows pm 0.1's order.
    @Test func aConvertedLogIsWrittenInMergeOrder() throws {
        let pm = PMBinary()
        func task(_ n: Int, _ day: Int) -> String {
            "{\"body\": \"\", \"createdAt\": \"2026-11-\(day)T09:00:00.000Z\", \"due\": null, "
                + "\"id\": \"00000000-0000-4000-8000-00000000000\(n)\", \"state\": \"todo\", \"title\": \"T\(n)\", "
                + "\"updatedAt\": \"2026-11-\(day)T09:00:00.000Z\"}"
        }
        func added(_ n: Int, _ day: Int) -> String {
            "{\"action\": \"added\", \"at\": \"2026-11-\(day)T09:00:00.000Z\", \"by\": \"a\", "
                + "\"id\": \"00000000-0000-4000-8000-0000000000e\(n)\", \"task\": \"00000000-0000-4000-8000-00000000000\(n)\", "
                + "\"title\": \"T\(n)\", \"to\": \"todo\"}"
        }
        let days = [1: 20, 2: 13, 3: 17, 4: 15]
        let board =
            "{\"history\": [\(days.keys.sorted().map { added($0, days[$0]!) }.joined(separator: ", "))], "
            + "\"id\": \"00c0ffee-0000-4000-8000-00000000b0a4\", \"revision\": 4, \"schemaVersion\": 1, "
            + "\"tasks\": [\(days.keys.sorted().map { task($0, days[$0]!) }.joined(separator: ", "))]}"
        try Data(board.utf8).write(to: URL(fileURLWithPath: pm.boardPath))
        #expect(try pm.run(["add", "converts"]).status == 0)
        let clocks = logText(pm).split(separator: "\n").compactMap { line -> [Int64]? in
            guard let range = line.range(of: "\"hlc\":[") else { return nil }
            let numbers = line[range.upperBound...].prefix { $0 != "]" }.split(separator: ",").compactMap { Int64($0) }
            return numbers.count == 2 ? numbers : nil
        }
        #expect(
            clocks.count >= 6 && zip(clocks, clocks.dropFirst()).allSatisfy { !$1.lexicographicallyPrecedes($0) }, "\(clocks)")
        let titles = try pm.run(["history"]).stdout.split(separator: "\n").dropFirst().map { $0.split(separator: "'")[1] }
        #expect(titles == ["T4", "T3", "T2", "T1"], "as pm 0.1 showed it: \(titles)")
        let marks = String(
            decoding: FileManager.default.contents(atPath: String(pm.boardPath.dropLast(5)) + ".events.marks") ?? Data(),
            as: UTF8.self)
        #expect(marks.contains("\"from\": 0") && marks.contains("\"batches\": []"), "\(marks)")
    }
}
