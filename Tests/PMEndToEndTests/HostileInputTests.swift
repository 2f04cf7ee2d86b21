import Foundation
import PMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Files, numbers, dates and text from anyone: refused with where and why,
/// never trusted, never written back in a form pm cannot read.
@Suite struct HostileInputTests {
    static let boardID = "00c0ffee-0000-4000-8000-00000000b0a4"
    static let task = """
        {"body": "", "createdAt": "2026-11-21T09:00:00.000Z", "due": null, "id": "00000000-0000-4000-8000-000000000001", \
        "state": "todo", "title": "Kept", "updatedAt": "2026-11-21T09:00:00.000Z"}
        """

    /// A board whose top-level fields are given, with one task.
    static func board(_ fields: String = "", revision: String = "3", task: String = task, history: String = "[]") -> String {
        "{\n  \"history\": \(history),\n  \"id\": \"\(boardID)\",\n  \"revision\": \(revision),\n  \"schemaVersion\": 1,\n"
            + "  \"tasks\": [\(task)]\(fields)\n}\n"
    }

    /// Duplicate keys at every level: the board, a task, a history event, an
    /// unknown nested object. Each is refused with its line and column, and
    /// the file is never rewritten (pm 0.1 kept the last value, and the next
    /// save destroyed the other).
    @Test(
        arguments: [
            ("tasks twice", board(",\n  \"tasks\": []")),
            (
                "task key twice",
                board(
                    task: task.replacingOccurrences(of: "\"title\": \"Kept\"", with: "\"title\": \"Kept\", \"title\": \"Lost\""))
            ),
            (
                "history event key twice",
                board(
                    history:
                        "[{\"action\": \"added\", \"at\": \"2026-11-21T09:00:00.000Z\", \"by\": \"a\", \"by\": \"b\", \"id\": \"00000000-0000-4000-8000-0000000000e1\", \"task\": \"00000000-0000-4000-8000-000000000001\", \"title\": \"Kept\", \"to\": \"todo\"}]"
                )
            ),
            ("nested unknown key twice", board(",\n  \"extra\": {\"a\": 1, \"a\": 2}")),
            ("escaped twin", board(",\n  \"extra\": {\"ab\": 1, \"a\\u0062\": 2}")),
        ].map { ($0.0, Unshown($0.1)) })
    func duplicateKeysAreRefusedWithTheirPlace(name: String, text: Unshown) throws {
        let pm = PMBinary()
        try Data(text.text.utf8).write(to: URL(fileURLWithPath: pm.boardPath))
        for arguments in [["list"], ["add", "x"], ["move", "0000", "done"]] {
            let run = try pm.run(arguments)
            #expect(run.status == 65, "\(name) \(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("appears twice in one object") && run.stderr.contains("line "), "\(name): \(run.stderr)")
        }
        #expect(pm.boardBytes() == Data(text.text.utf8))
    }

    /// The per-user state files refuse duplicate keys and damage with their
    /// line and column, and say how to start afresh; the board is untouched.
    @Test func damagedStateFilesAreRefusedWithTheirPlace() throws {
        let pm = PMBinary()
        try pm.run(["add", "due today", "--due", "2026-11-21"])
        try pm.run(["remind"], ["PM_NOW": "2026-11-21T10:00:00Z"])
        let state = pm.home.file(".local/state/pm")
        let names = try FileManager.default.contentsOfDirectory(atPath: state)
        let undo = state + "/" + (try #require(names.first { $0.hasPrefix("undo-") }))
        let log = state + "/" + (try #require(names.first { $0.hasPrefix("reminded-") }))
        try Data("{\"redo\": [],\n \"redo\": [], \"undo\": []}".utf8).write(to: URL(fileURLWithPath: undo))
        let board = pm.boardBytes()
        let add = try pm.run(["add", "x"])
        #expect(
            add.status == 65 && add.stderr.contains("(line 2, column 2)") && add.stderr.contains("appears twice"), "\(add.stderr)"
        )
        #expect(pm.boardBytes() == board)
        try Data("{\"shown\": [], \"shown\": []}".utf8).write(to: URL(fileURLWithPath: log))
        let remind = try pm.run(["remind"], ["PM_NOW": "2026-11-21T10:00:00Z"])
        #expect(
            remind.status == 65 && remind.stderr.contains("remembers the reminders") && remind.stderr.contains("column 15"),
            "\(remind.stderr)")
        #expect(try pm.run(["list"]).status == 0, "reads of the board still work")
    }

    /// Huge inputs: a title of 120,000 characters (about the most one
    /// argument can carry) is refused with the limit; a 20 MB body in a
    /// shared schema-1 file is read and shown, and kept whole in a copy of
    /// the file when the first change converts it: its change carries the
    /// body cut at the limit every copy of the board takes (issue 43).
    @Test func hugeInputsAreRefusedOrHandled() throws {
        let pm = PMBinary()
        let long = try pm.run(["add", String(repeating: "가", count: 40_000)])
        #expect(long.status == 64 && long.stderr.contains("40000") && long.stderr.contains("200"), "\(long.stderr.prefix(200))")
        let body = String(repeating: "b", count: 20_000_000)
        let board = Self.board(task: Self.task.replacingOccurrences(of: "\"body\": \"\"", with: "\"body\": \"\(body)\""))
        try Data(board.utf8).write(to: URL(fileURLWithPath: pm.boardPath))
        #expect(try pm.run(["list"]).status == 0)
        #expect(try pm.run(["show", "0000"]).stdout.count > 20_000_000, "shown whole before the change")
        #expect(try pm.run(["add", "small"]).status == 0)
        let shown = try pm.run(["show", "0000"]).stdout
        #expect(shown.count < 10_000 && shown.contains(String(repeating: "b", count: 999) + "…"), "\(shown.prefix(300))")
        let kept = String(pm.boardPath.dropLast(5)) + ".schema-1.json"
        #expect((FileManager.default.contents(atPath: kept)?.count ?? 0) > 20_000_000, "the file as it was, beside")
    }

    @Test func aDeviceIsNotABoard() throws {
        let pm = PMBinary(board: "/dev/null")
        for arguments in [["list"], ["add", "x"]] {
            let run = try pm.run(arguments)
            #expect(run.status == 74 && run.stderr.contains("not a regular file"), "\(arguments): \(run.stderr)")
        }
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    /// `revision` at Int.max trapped every write (signal 4). Numbers too big
    /// for pm are refused as bad data, never a crash.
    @Test func numbersAtTheirLimitsNeverTrap() throws {
        let pm = PMBinary()
        try Data(Self.board(revision: "9223372036854775807").utf8).write(to: URL(fileURLWithPath: pm.boardPath))
        let add = try pm.run(["add", "after the limit"])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(try pm.run(["list", "--json"]).stdout.contains("after the limit"))
        for literal in ["9223372036854775808", "1e400", "-9223372036854775809", "3.5"] {
            let text = Self.board(revision: literal)
            try Data(text.utf8).write(to: URL(fileURLWithPath: pm.boardPath))
            let run = try pm.run(["add", "x"])
            #expect(run.status == 65 && run.stderr.contains("'revision'"), "\(literal): \(run.status) \(run.stderr)")
            #expect(pm.boardBytes() == Data(text.utf8))
        }
        let huge = Self.board().replacingOccurrences(of: "\"schemaVersion\": 1", with: "\"schemaVersion\": 99999999999999999999")
        try Data(huge.utf8).write(to: URL(fileURLWithPath: pm.boardPath))
        #expect(try pm.run(["add", "x"]).status == 65)
    }

    /// "today", "tomorrow", `+Nd`, `+Nw`, words and the short date near the
    /// calendar's edges: a change is refused rather than write a board that
    /// nobody can read (pm 0.1 wrote year 10000 and bricked the board).
    @Test func datesAtTheCalendarsEdgesNeverBrickTheBoard() throws {
        let pm = PMBinary()
        let lastDay = ["PM_NOW": "9999-12-31T10:00:00Z", "TZ": "Asia/Seoul"]
        #expect(try pm.run(["add", "x"], lastDay).status == 64, "a clock past the last whole day is refused")
        let edge = ["PM_NOW": "9999-12-30T20:00:00Z", "TZ": "Asia/Seoul"]  // 9999-12-31 in Seoul
        let kept = try pm.run(["add", "today", "--due", "today"], edge)
        #expect(kept.status == 0, "\(kept.stderr)")
        for form in ["tomorrow", "+1d", "+1w", "+9999999d", "내일"] {
            let run = try pm.run(["add", "x", "--due", form], edge.merging(["LANG": "ko_KR.UTF-8"]) { $1 })
            #expect(run.status == 64, "\(form): \(run.status) \(run.stderr)")
        }
        for form in ["1/1/10000", "10000-01-01", "0000-12-31", "12/31/00000"] {
            #expect(try pm.run(["add", "x", "--due", form]).status == 64, "\(form)")
        }
        let first = ["PM_NOW": "0001-01-02T02:00:00Z", "TZ": "America/Los_Angeles"]  // 0001-01-01 there
        #expect(try pm.run(["add", "first day", "--due", "today"], first).status == 0)
        for arguments in [["list"], ["list", "--json"], ["history"], ["export", "ics"], ["show", "0000"]] {
            let run = try pm.run(arguments)
            #expect(run.status == 0 || run.status == 1, "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("Cannot read the board"), "\(arguments): \(run.stderr)")
        }
        #expect(try pm.run(["export", "ics"]).stdout.contains("DURATION:P1D"), "9999-12-31 has no next day to end on")
    }

    /// A shown date can be typed back, also where the calendar is not
    /// Gregorian (th_TH counts the Buddhist era: 2026 is 2569).
    @Test func aDateShownUnderThaiLocaleIsTypedBackAsTheSameDay() throws {
        let pm = PMBinary(language: "th_TH.UTF-8")
        let id = try pm.run(["add", "งาน", "--due", "2026-12-01"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let shown = try pm.run(["show", id]).stdout
        let line = try #require(shown.split(separator: "\n").first { $0.contains("2569") }, "\(shown)")
        let date = String(line.drop { !$0.isNumber })
        for typed in [date, "1/12/2569", "1/12/69"] {
            let run = try pm.run(["edit", id, "--due", typed])
            #expect(run.status == 0, "\(typed): \(run.stderr)")
            #expect(try pm.run(["show", id, "--json"]).stdout.contains("\"due\": \"2026-12-01\""), "\(typed)")
        }
        for (language, typed) in [
            ("en_US.UTF-8", "Dec 1, 2026"), ("fr_FR.UTF-8", "1 déc. 2026"), ("fr_FR.UTF-8", "1er déc. 2026"),
            ("ko_KR.UTF-8", "2026. 12. 1."),
            ("ko_KR.UTF-8", "2026년 12월 1일"),
        ] {
            let run = try pm.run(["edit", id, "--due", typed], ["LANG": language])
            #expect(run.status == 0, "\(language) \(typed): \(run.stderr)")
        }
    }

    /// A table adds words; it cannot change what a built-in form means.
    @Test func aTableCannotRedefineABuiltInDateForm() throws {
        let pm = PMBinary(language: "de_DE.UTF-8")
        let tables = pm.home.file("l10n/de.lproj")
        try FileManager.default.createDirectory(atPath: tables, withIntermediateDirectories: true)
        pm.home.write("l10n/de.lproj/Localizable.strings", "\"date.tomorrow\" = \"morgen|+5d|2026-01-01\";\n")
        let env = ["PM_LOCALIZATION_DIR": pm.home.file("l10n")]
        for (typed, expected) in [("+5d", "2026-11-26"), ("2026-01-01", "2026-01-01"), ("morgen", "2026-11-22")] {
            let run = try pm.run(["add", "x", "--due", typed, "--json"], env)
            #expect(run.stdout.contains("\"due\": \"\(expected)\""), "\(typed): \(run.stdout)\(run.stderr)")
        }
    }

    /// Titles nobody can see are empty titles; bytes that are not UTF-8 are
    /// refused, never stored as U+FFFD.
    @Test func invisibleTitlesAndInvalidUTF8ArgumentsAreRefused() throws {
        let pm = PMBinary()
        for title in ["\u{200B}", " \u{200B}\u{2060} ", "\u{3164}", "\u{FEFF}", "\u{00A0}", "\u{0301}"] {
            let run = try pm.run(["add", title])
            #expect(
                run.status == 64 && run.stderr.contains("The title is empty"),
                "\(title.unicodeScalars.map(\.value)): \(run.stderr)")
        }
        // Process passes Swift strings; give raw bytes through the shell.
        let shell = try runChild(
            "/bin/sh", ["-c", "\"$0\" add \"$(printf 'caf\\351')\"", PMBinary.path], environment: pm.environment,
            stdout: .discard)
        let stderr = String(decoding: shell.stderr, as: UTF8.self)
        #expect(shell.status == 64 && stderr.contains("not valid UTF-8"), "\(stderr)")
        #expect(pm.boardBytes() == nil, "nothing was written")
    }

    /// POSIX `TZ` strings are zones, not UTC: `KST-9` is Seoul's offset, and
    /// a rule with daylight time follows it.
    @Test func posixTZStringsAreHonoured() throws {
        let pm = PMBinary()
        try pm.run(["add", "due", "--due", "2026-11-21"])
        let late = ["PM_NOW": "2026-11-20T16:00:00Z"]  // 01:00 on the 21st in Seoul, still the 20th in UTC
        #expect(try pm.run(["list"], late.merging(["TZ": "KST-9"]) { $1 }).stdout.contains("due today"))
        #expect(try pm.run(["list"], late.merging(["TZ": "UTC"]) { $1 }).stdout.contains("due Nov 21"))
        #expect(try pm.run(["list"], ["TZ": "KST-9", "PM_NOW": "2026-11-22T16:00:00Z"]).stdout.contains("(overdue)"))
        #expect(try !pm.run(["list"], ["TZ": "UTC", "PM_NOW": "2026-11-21T16:00:00Z"]).stdout.contains("(overdue)"))
        // CET-1CEST: in July 23:30Z is 01:30 the next day (UTC+2), in January 00:30 (UTC+1).
        let rule = "CET-1CEST,M3.5.0,M10.5.0/3"
        let summer = try pm.run(["add", "s", "--due", "today", "--json"], ["TZ": rule, "PM_NOW": "2026-07-14T22:30:00Z"])
        #expect(summer.stdout.contains("\"due\": \"2026-07-15\""), "\(summer.stdout)")
        let winter = try pm.run(["add", "w", "--due", "today", "--json"], ["TZ": rule, "PM_NOW": "2026-01-14T22:30:00Z"])
        #expect(winter.stdout.contains("\"due\": \"2026-01-14\""), "\(winter.stdout)")
        // Made in January after changes of November: history, in merge order, lists it after them.
        let history = try pm.run(["history", "--limit", "3"], ["TZ": rule, "PM_NOW": "2026-01-14T22:30:00Z"])
        #expect(history.stdout.contains("11:30"), "the history time follows the rule: \(history.stdout)")
    }

    /// A relative `XDG_DATA_HOME` or `XDG_STATE_HOME` is invalid (the XDG
    /// spec) and ignored, not resolved against wherever pm was started.
    @Test func relativeXDGDirectoriesAreIgnored() throws {
        var pm = PMBinary()
        pm.environment["PM_BOARD"] = nil
        let elsewhere = pm.home.file("cwd")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let process = try runChild(
            PMBinary.path, ["add", "x"],
            environment: pm.environment.merging(["XDG_DATA_HOME": "data", "XDG_STATE_HOME": "state"]) { $1 }, in: elsewhere,
            stdout: .discard)
        let message = String(decoding: process.stderr, as: UTF8.self)
        #expect(process.status == 0)
        #expect(message.contains(pm.home.file(".local/share/pm/board.json")), "\(message)")
        #expect(FileManager.default.fileExists(atPath: pm.home.file(".local/share/pm/board.json")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }

    @Test func userNamesThatDifferLateOrOnlyInCaseNeverShareAStack() throws {
        let pm = PMBinary()
        let long = String(repeating: "n", count: 150)
        try pm.run(["add", "by the first"], ["PM_USER": long + "1"])
        #expect(try pm.run(["undo"], ["PM_USER": long + "2"]).status == 1)
        try pm.run(["add", "by Alice"], ["PM_USER": "Alice"])
        #expect(try pm.run(["undo"], ["PM_USER": "alice"]).status == 1)
        #expect(try pm.run(["undo"], ["PM_USER": "Alice"]).status == 0)
        #expect(try pm.run(["undo"], ["PM_USER": long + "1"]).status == 0)
    }
}
