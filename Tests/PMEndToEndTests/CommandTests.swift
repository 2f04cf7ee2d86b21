import Foundation
import Testing

@Suite struct CommandTests {
    /// Spaces around a title are dropped; a tab or a line break in one is
    /// refused in words of the reader's language (never `\u{9}`), and nothing is written.
    @Test func titlesAreTrimmedAndControlCharactersNamed() throws {
        let pm = PMBinary()
        let id = try pm.run(["add", "  Spaced out \u{3000}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try pm.run(["list", "--json"]).stdout.contains("\"title\": \"Spaced out\""))
        #expect(try pm.run(["edit", id, "--title", " Spaced out "]).stdout.hasPrefix("Nothing changed"))
        let before = pm.boardBytes()
        for (language, tab, newline) in [
            ("en_US.UTF-8", "cannot hold a tab", "cannot hold a line break"),
            ("fr_FR.UTF-8", "ce caractère : une tabulation", "ce caractère : un saut de ligne"),
            ("ko_KR.UTF-8", "탭 문자를 넣을 수 없습니다", "줄 바꿈을 넣을 수 없습니다"),
        ] {
            let tabbed = try pm.run(["add", "a\tb"], ["LANG": language])
            #expect(tabbed.status == 64 && tabbed.stderr.contains(tab) && !tabbed.stderr.contains("\\u{"), "\(tabbed.stderr)")
            let broken = try pm.run(["edit", id, "--title", "a\nb"], ["LANG": language])
            #expect(broken.status == 64 && broken.stderr.contains(newline), "\(broken.stderr)")
        }
        let bell = try pm.run(["add", "ring\u{7}"])
        #expect(bell.stderr.contains("U+0007"), "\(bell.stderr)")
        #expect(pm.boardBytes() == before, "nothing written")
    }

    @Test func addListMoveEditShowDeleteRoundTrip() throws {
        let pm = PMBinary()
        let added = try pm.run(["add", "Write report", "--body", "Q3 numbers", "--due", "+3d"])
        #expect(added.status == 0)
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(id.count == 4 && id.allSatisfy(\.isHexDigit))
        #expect(try pm.run(["move", id, "doing"]).stdout == "Moved 'Write report' from TODO to DOING.\n")
        #expect(try pm.run(["move", id, "DOING"]).stdout == "'Write report' is already in DOING.\n")
        #expect(
            try pm.run(["edit", id, "--title", "Write the report", "--no-due"]).stdout
                == "Renamed 'Write report' to 'Write the report'. Removed the deadline of 'Write the report' (it was Nov 24, 2026).\n"
        )
        #expect(
            try pm.run(["edit", id, "--title", "Write the report"]).stdout
                == "Nothing changed: 'Write the report' already had those values.\n", "an edit that changes nothing says so")
        let shown = try pm.run(["show", id, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        #expect(object["title"] as? String == "Write the report")
        #expect(object["state"] as? String == "doing")
        #expect(object["due"] is NSNull)
        #expect(object["overdue"] as? Bool == false)
        #expect(object["body"] as? String == "Q3 numbers")
        #expect((object["id"] as? String)?.hasPrefix(id) == true)
        #expect(object["createdAt"] as? String == "2026-11-21T10:00:00.000Z")
        #expect(object["assignees"] as? [String] == [], "scripts always find the assignees, empty when nobody")
        #expect(
            Set(object.keys) == [
                "id", "title", "body", "state", "due", "overdue", "createdAt", "updatedAt", "assignees", "labels", "priority",
                "checklist", "comments", "recur", "dueTime",
            ])
        #expect(try pm.run(["rm", id]).stdout == "Removed 'Write the report' from DOING.\n")
        #expect(try pm.run(["list", "--json"]).stdout == "[]\n")
        // The log beside the board holds every change, one complete event a line.
        let log = String(
            decoding: FileManager.default.contents(atPath: pm.home.file("board.events.jsonl")) ?? Data(), as: UTF8.self)
        let all = log.split(separator: "\n")
        #expect(all.first?.contains("\"kind\":\"board\"") == true, "the log starts with the board's record")
        let lines = Array(all.dropFirst())
        #expect(lines.count == 4, "the no-op move records nothing")
        for (line, kind) in zip(lines, ["created", "moved", "edited", "deleted"]) {
            #expect(line.contains("\"kind\":\"\(kind)\"") && line.contains("\"by\":\"ji-woo\""), "\(line)")
        }
        #expect(lines[0].contains("\"body\":{\"new\":\"Q3 numbers\",\"old\":null}"), "a creation carries every field")
    }

    @Test func statesAreAcceptedByKeyOrByAnyShippedColumnName() throws {
        let pm = PMBinary()
        let id = try pm.run(["add", "t"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for (name, key) in [("en cours", "doing"), ("완료", "done"), ("À FAIRE", "todo"), ("Done", "done"), ("진행 중", "doing")] {
            #expect(try pm.run(["move", id, name]).status == 0)
            #expect(try pm.run(["show", id, "--json"]).stdout.contains("\"state\": \"\(key)\""))
        }
        let bad = try pm.run(["move", id, "later"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("'later' is not a state"))
        #expect(bad.stderr.contains("todo (TODO), doing (DOING), done (DONE)"))
    }

    @Test func listJSONIsUntranslatedAndInDisplayOrder() throws {
        let pm = PMBinary(language: "ko_KR.UTF-8")
        try pm.useSampleBoard()
        let json = try pm.run(["list", "--json"])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(array.map { $0["state"] as? String } == ["todo", "todo", "todo", "doing", "doing", "done"])
        #expect(array.first?["overdue"] as? Bool == true)
        #expect(array.first?["due"] as? String == "2026-11-20")
        #expect(!json.stdout.contains("할 일"))
        let filtered = try pm.run(["list", "--json", "--state", "done", "--state", "en cours"])
        let states = try #require(try JSONSerialization.jsonObject(with: Data(filtered.stdout.utf8)) as? [[String: Any]]).map {
            $0["state"] as? String
        }
        #expect(states == ["doing", "doing", "done"])
    }

    @Test func overdueIsRedOnlyWhenColourIsWanted() throws {
        let pm = PMBinary()
        try pm.useSampleBoard()
        #expect(try pm.run(["list", "--color", "always"]).stdout.contains("\u{1B}[31mNov 20 (overdue)\u{1B}[0m"))
        #expect(!(try pm.run(["list"]).stdout.contains("\u{1B}")))
        #expect(!(try pm.run(["list", "--color", "auto"], ["NO_COLOR": "1"]).stdout.contains("\u{1B}")))
        // A title from the file with escape sequences is shown escaped, never raw, even with colour on.
        let coloured = try pm.run(["list", "--color", "always"]).stdout
        #expect(!coloured.contains("\u{1B}[31mescape"))
        #expect(!coloured.contains("\u{202E}"))
    }

    @Test func overdueDependsOnTheViewersTimeZone() throws {
        let pm = PMBinary()
        try pm.run(["add", "due the 21st", "--due", "2026-11-21"])
        let instant = ["PM_NOW": "2026-11-21T20:00:00Z"]
        let seoul = try pm.run(["list", "--json"], instant.merging(["TZ": "Asia/Seoul"]) { $1 })
        let losAngeles = try pm.run(["list", "--json"], instant.merging(["TZ": "America/Los_Angeles"]) { $1 })
        #expect(seoul.stdout.contains("\"overdue\": true"))
        #expect(losAngeles.stdout.contains("\"overdue\": false"))
    }

    @Test func theBoardPathComesFromFlagThenPMBoardThenXDG() throws {
        var pm = PMBinary()
        pm.environment["PM_BOARD"] = nil
        pm.environment["XDG_DATA_HOME"] = pm.home.file("data")
        try pm.run(["add", "xdg"])
        #expect(FileManager.default.fileExists(atPath: pm.home.file("data/pm/board.json")))
        pm.environment["XDG_DATA_HOME"] = nil
        try pm.run(["add", "home default"])
        #expect(FileManager.default.fileExists(atPath: pm.home.file(".local/share/pm/board.json")))
        pm.environment["PM_BOARD"] = pm.home.file("env.json")
        try pm.run(["add", "env"])
        try pm.run(["add", "flag", "--board", pm.home.file("flag.json")])
        #expect(FileManager.default.fileExists(atPath: pm.home.file("env.json")))
        #expect(FileManager.default.fileExists(atPath: pm.home.file("flag.json")))
        #expect(try pm.run(["list", "--json", "--board", pm.home.file("flag.json")]).stdout.contains("\"title\": \"flag\""))
    }

    @Test func errorsAreLocalizedWithTheirExitCodes() throws {
        for (language, notFound) in [
            ("en_US.UTF-8", "No task matches 'abcd'."), ("fr_FR.UTF-8", "pm : erreur : aucune tâche ne correspond à « abcd »."),
            ("ko_KR.UTF-8", "'abcd'에 해당하는 작업이 없습니다."),
        ] {
            let pm = PMBinary(language: language)
            try pm.run(["add", "t"])
            let run = try pm.run(["show", "abcd"])
            #expect(run.status == 1)
            #expect(run.stderr.contains(notFound), "\(language): \(run.stderr)")
            #expect(run.stdout.isEmpty)
        }
        let pm = PMBinary()
        #expect(try pm.run(["add", ""]).status == 64)
        #expect(try pm.run(["add", String(repeating: "x", count: 201)]).stderr.contains("201 characters long; the limit is 200"))
        #expect(try pm.run(["add", "x", "--body", String(repeating: "y", count: 1001)]).status == 64)
        let date = try pm.run(["add", "x", "--due", "2026-02-30"])
        #expect(date.status == 64 && date.stderr.contains("YYYY-MM-DD"))
        #expect(try pm.run(["add", "a\u{1B}]0;title\u{07}"]).stderr.contains("(ESC)"))
        #expect(try pm.run(["frobnicate"]).status == 64)
        #expect(try pm.run(["list", "--color", "purple"]).status == 64)
        #expect(try pm.run(["edit", "abcd"]).status == 64)
        #expect(try pm.run(["list"], ["PM_NOW": "not a date"]).status == 64)
        #expect(pm.boardBytes() == nil, "no failed command may create the board")
    }

    @Test func anAmbiguousPrefixListsCandidatesWithTitles() throws {
        let pm = PMBinary()
        try pm.useSampleBoard()
        let run = try pm.run(["show", "3f2"])
        #expect(run.status == 1)
        let tie = try pm.run(["show", "3f2a9"])
        #expect(tie.status == 0)
        var board = String(decoding: pm.boardBytes() ?? Data(), as: UTF8.self)
        board = board.replacingOccurrences(of: "3f2b0d44-1c2e", with: "3f2a0d44-1c2e")
        try Data(board.utf8).write(to: URL(fileURLWithPath: pm.boardPath))
        let ambiguous = try pm.run(["show", "3f2a"])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.stderr.contains("'3f2a' matches more than one task:"))
        #expect(ambiguous.stderr.contains("3f2a9c1e-7b4d-4e8a-9c2f-1a2b3c4d5e01  Write the quarterly report"))
        #expect(ambiguous.stderr.contains("3f2a0d44-1c2e-4f3a-8b9c-0d1e2f3a4b02  Réunion d’équipe à Lyon"))
    }

    @Test func oddLocaleVariablesNeverCrash() throws {
        let pm = PMBinary()
        try pm.useSampleBoard()
        let variants: [[String: String]] = [
            ["LANG": "C"], ["LANG": "POSIX"], ["LANG": "C.UTF-8"], ["LANG": "fr_FR.UTF-8@euro"], ["LANG": "de-DE"],
            ["LANG": "ko_KR.UTF-8", "LANGUAGE": "xx:fr"], ["LANG": ""], ["LANG": "x\u{1B}y"], ["LC_ALL": "ja_JP.UTF-8"],
            ["LC_TIME": "fr_FR.UTF-8", "LANG": "en_US.UTF-8"], ["TZ": "Not/AZone"], ["TZ": ":Asia/Seoul"], ["COLUMNS": "5"],
            ["COLUMNS": "-3"], ["COLUMNS": "99999999999999999999"],
        ]
        for extra in variants {
            let run = try pm.run(["list"], extra)
            #expect(run.status == 0, "\(extra): \(run.stderr)")
        }
        #expect(try pm.run(["list"], ["LANG": "ko_KR.UTF-8", "LANGUAGE": "xx:fr"]).stdout.contains("À FAIRE"))
        #expect(try pm.run(["list"], ["LANG": "C", "LANGUAGE": "fr"]).stdout.contains("TODO"))
        let mixed = try pm.run(["list"], ["LC_TIME": "fr_FR.UTF-8", "LANG": "en_US.UTF-8"]).stdout
        #expect(mixed.contains("TODO") && mixed.contains("20 nov. (overdue)"))
    }
}

extension CommandTests {
    /// `pm start ID` and `pm done ID`: shortcuts for moving to DOING and DONE, in every language.
    @Test func startAndDoneMoveTheTask() throws {
        let pm = PMBinary()
        let id = try pm.run(["add", "Ship it"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let start = try pm.run(["start", id], ["LANG": "fr_FR.UTF-8"])
        #expect(start.status == 0 && start.stdout.contains("EN COURS"), "\(start.stdout)\(start.stderr)")
        let done = try pm.run(["done", id, "--json"])
        #expect(done.status == 0 && done.stdout.contains("\"state\": \"done\""), "\(done.stdout)")
        let again = try pm.run(["done", id], ["LANG": "ko_KR.UTF-8"])
        #expect(again.status == 0 && again.stdout.contains("완료"), "already there: \(again.stdout)")
        let history = try pm.run(["history", "--limit", "2"]).stdout
        #expect(history.contains("from TODO to DOING") && history.contains("from DOING to DONE"), "\(history)")
        #expect(try pm.run(["start", "0000"]).status == 1)
    }
}

extension CommandTests {
    /// `pm list --grep TEXT`: title or body, case and accents ignored by the reader's collation.
    @Test func listGrepIgnoresCaseAndAccents() throws {
        let pm = PMBinary()
        try pm.run(["add", "Réunion d\u{2019}équipe"])
        try pm.run(["add", "Ta\u{302}che de\u{301}compose\u{301}e"])
        try pm.run(["add", "디자인 회의", "--body", "notes"])
        try pm.run(["add", "Write REPORT", "--body", "Numbers from FINANCE"])
        func titles(_ arguments: [String], _ extra: [String: String] = [:]) throws -> [String] {
            let run = try pm.run(["list", "--json"] + arguments, extra)
            let tasks = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]] ?? []
            return tasks.compactMap { $0["title"] as? String }.sorted()
        }
        #expect(try titles(["--grep", "reunion"]) == ["Réunion d\u{2019}équipe"])
        #expect(try titles(["--grep", "ÉQUIPE"], ["LANG": "fr_FR.UTF-8"]) == ["Réunion d\u{2019}équipe"])
        #expect(try titles(["--grep", "tâche"]).count == 1, "decomposed accents match composed ones")
        #expect(try titles(["--grep", "finance"]) == ["Write REPORT"], "the body counts")
        #expect(try titles(["--grep", "회의"], ["LANG": "ko_KR.UTF-8"]) == ["디자인 회의"])
        #expect(try titles(["--grep", "nothing like it"]).isEmpty)
        let plain = try pm.run(["list", "--grep", "report"]).stdout
        #expect(plain.contains("Write REPORT") && !plain.contains("Réunion") && plain.contains("1 task"), "\(plain)")
    }
}
