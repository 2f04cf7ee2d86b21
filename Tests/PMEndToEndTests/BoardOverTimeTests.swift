import Foundation
import PMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `pm board` left open, as a newcomer left it (issue 21): past midnight with
/// a clock that moves, offline for a while, idle over ssh; the delete
/// question in three languages; conflicts chosen on the board.
@Suite(.serialized, .onOwnThreads) struct BoardOverTimeTests {
    typealias Session = BoardTmuxTests.Session

    static let faketime = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"

    /// Seoul, 23:59:50: a card due today is not overdue; ten seconds later
    /// the clock passes midnight and, with no key pressed, it turns overdue
    /// (red, and said in words); at 09:00 the next day's card is reminded.
    @Test func todayMovesPastMidnightWhileTheBoardIsOpen() throws {
        try #require(FileManager.default.fileExists(atPath: Self.faketime), "faketime is installed by .ci/run")
        var pm = PMBinary()
        pm.environment["TZ"] = "Asia/Seoul"
        pm.environment["PM_NOW"] = "2026-11-24T20:00:00+09:00"
        try pm.run(["add", "Due tonight", "--due", "2026-11-24"])
        try pm.run(["add", "Due tomorrow", "--due", "2026-11-25"])
        pm.environment["PM_NOW"] = nil
        // Its own clock, not the one a whole run on a faked date gives (`.ci/suite-any-day`).
        pm.environment["FAKETIME"] = nil
        let clock = pm.home.file("clock")
        try "@2026-11-24 23:59:50\n".write(toFile: clock, atomically: true, encoding: .utf8)
        let session = try Session(
            pm: pm,
            extra: ["LD_PRELOAD": Self.faketime, "FAKETIME_TIMESTAMP_FILE": clock, "FAKETIME_NO_CACHE": "1"])
        defer { session.close() }
        #expect(session.waitFor { $0.contains("TODO (2)") && !$0.contains("overdue") }, "\(session.screen)")
        try "@2026-11-25 00:00:04\n".write(toFile: clock, atomically: true, encoding: .utf8)
        #expect(
            session.waitFor { $0.contains("Nov 24 (overdue)") && $0.contains("due today") },
            "yesterday's deadline is overdue after midnight: \(session.screen)")
        let colours = try session.tmux(["capture-pane", "-p", "-e", "-t", "0"])
        #expect(colours.contains("\u{1B}[31m"), "and red")
        try "@2026-11-25 09:00:03\n".write(toFile: clock, atomically: true, encoding: .utf8)
        #expect(
            session.waitFor { $0.contains("Reminder: 'Due tomorrow' is due today") && $0.contains("due today") },
            "the reminder falls due while the board is open: \(session.screen)")
        // And the board still works at the new date.
        try session.keys("q")
        #expect(session.waitFor { $0.contains("EXITED-0") })
    }

    /// The real clock: a deadline before today is overdue on the board as in `pm list`, and in the same order.
    @Test func theRealClockAndListsOrder() throws {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        try pm.run(["add", "No deadline"])
        try pm.run(["add", "Long ago", "--due", "2001-01-01"])
        try pm.run(["add", "Far ahead", "--due", "2999-01-01"])
        let session = try Session(pm: pm)
        defer { session.close() }
        #expect(session.waitFor { $0.contains("TODO (3)") })
        let lines = session.screen.split(separator: "\n").map(String.init)
        let order = ["Long ago", "Far ahead", "No deadline"].map { title in lines.firstIndex { $0.contains(title) } ?? -1 }
        #expect(order == order.sorted() && !order.contains(-1), "pm list's order, by deadline: \(lines)")
        #expect(lines.contains { $0.contains("Jan 1, 2001 (overdue)") })
    }

    /// Offline: the indicator is always on the status line, in reverse video,
    /// while an action's message shares the line; back online, it says so.
    @Test func theOnlineIndicatorStaysVisible() throws {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        let share = pm.home.file("share")
        try pm.run(["remote", "add", share])
        try pm.run(["add", "First"])
        try pm.run(["sync"])
        let session = try Session(pm: pm, extra: ["PM_SYNC_INTERVAL": "0.5"])
        defer { session.close() }
        #expect(session.waitFor { $0.contains("● online") }, "\(session.screen)")
        try FileManager.default.moveItem(atPath: share, toPath: share + ".away")
        #expect(session.waitFor(5) { $0.contains("✕ offline since") }, "\(session.screen)")
        let reverse = try session.tmux(["capture-pane", "-p", "-e", "-t", "0"])
        #expect(reverse.contains("\u{1B}[7m") || reverse.contains(";7m"), "offline in reverse video")
        try session.keys("a")
        try session.raw("Written offline")
        try session.keys("Enter")
        #expect(
            session.waitFor(3) { $0.contains("Added 'Written offline'.") && $0.contains("offline since") },
            "the message and the indicator share the line: \(session.screen)")
        #expect(
            session.waitFor(9) { !$0.contains("Added 'Written offline'.") && $0.contains("change waiting") },
            "the message goes back to the sync state after a few seconds: \(session.screen)")
        try FileManager.default.moveItem(atPath: share + ".away", toPath: share)
        #expect(session.waitFor(5) { $0.contains("● online") && $0.contains("0 changes waiting") }, "\(session.screen)")
    }

    /// An idle board writes nothing to the terminal (no cursor sequence ten times a second over ssh).
    @Test func anIdleBoardSendsNothing() throws {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        try pm.run(["add", "Quiet"])
        let session = try Session(pm: pm)
        defer { session.close() }
        #expect(session.waitFor { $0.contains("TODO (1)") })
        usleep(1_500_000)
        let log = pm.home.file("pane.out")
        try session.tmux(["pipe-pane", "-o", "-t", "0", "cat >> '\(log)'"])
        usleep(2_500_000)
        let idle = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
        #expect(idle == 0, "\(idle) bytes sent in 2.5 s with nothing changing")
        try session.keys("Down")
        usleep(500_000)
        try session.keys("a")
        #expect(session.waitFor { $0.contains("New card") })
        let after = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
        #expect(after > 0, "a change is drawn")
    }

    /// The delete question: arrows move between the answers instead of closing
    /// it; French `o` (Oui) deletes; Korean `ㅛ` too; `?` lists its keys.
    @Test func theDeleteQuestionInThreeLanguages() throws {
        let cases = [
            ("en_US.UTF-8", "y", "y", "Delete '", "TODO (1)"), ("fr_FR.UTF-8", "o", "o", "Supprimer « ", "À FAIRE (1)"),
            ("ko_KR.UTF-8", "y", "ㅛ", "삭제하시겠습니까", "할 일 (1)"),
        ]
        for (language, shown, yes, title, after) in cases {
            let pm = PMBinary(language: language)
            try pm.run(["add", "Card A"])
            try pm.run(["add", "Card B"], ["PM_NOW": "2026-11-21T10:05:00Z"])
            let session = try Session(pm: pm, language: language)
            defer { session.close() }
            #expect(session.waitFor { $0.contains("Card B") })
            try session.keys("d")
            #expect(session.waitFor { $0.contains(title) }, "\(language): \(session.screen)")
            try session.keys("Down")
            try session.keys("j")
            try session.keys("Right")
            usleep(300_000)
            #expect(session.screen.contains(title), "\(language): arrows do not close the question")
            try session.keys("?")
            #expect(session.waitFor { $0.contains("Enter") || $0.contains("Entrée") }, "\(language): \(session.screen)")
            #expect(
                session.screen.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix(shown + " ") },
                "\(language): help names the yes key")
            try session.keys("Escape")
            #expect(session.waitFor { $0.contains(title) }, "\(language): help goes back to the question")
            try session.raw(yes)
            #expect(session.waitFor { !$0.contains(title) && $0.contains(after) }, "\(language): \(session.screen)")
            #expect(!(try pm.run(["list", "--json"]).stdout.contains("Card A")), "\(language): deleted on disk")
        }
    }

    /// A drag shows where the card would land before the button is released.
    @Test func aDragShowsWhereTheCardGoes() throws {
        let pm = PMBinary()
        try pm.run(["add", "Dragged"])
        let session = try Session(pm: pm)
        defer { session.close() }
        #expect(session.waitFor { $0.contains("TODO (1)") })
        try session.raw("\u{1B}[<0;3;3M")
        try session.raw("\u{1B}[<32;75;3M")
        #expect(session.waitFor { $0.contains("Release to move 'Dragged' to DONE") }, "\(session.screen)")
        try session.raw("\u{1B}[<0;75;3m")
        #expect(session.waitFor { $0.contains("DONE (1)") && !$0.contains("Release to move") }, "\(session.screen)")
    }

    /// `TERM=dumb` (an editor's shell): a clear message and the usage exit code, nothing drawn.
    @Test func aDumbTerminalIsRefusedInWords() throws {
        let pm = PMBinary()
        let session = try Session(pm: pm, extra: ["TERM": "dumb"])
        defer { session.close() }
        #expect(
            session.waitFor { $0.contains("TERM is dumb") && $0.contains("EXITED-64") && !$0.contains("\u{1B}") },
            "\(session.screen)")
    }

    /// Two copies rename one card at once: the board marks the conflict, `c`
    /// lists both values, and the one chosen is kept everywhere.
    @Test func aConflictIsChosenOnTheBoard() throws {
        let (pm, colleague, them) = try BoardTmuxTests.withColleague()
        let id = try pm.run(["add", "Budget"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try pm.run(["sync"])
        try pm.run(["sync"] + colleague, them)
        try pm.run(["edit", id, "--title", "Budget 2027"])
        try pm.run(["edit", id, "--title", "Budget (draft)"] + colleague, them)
        try pm.run(["sync"] + colleague, them)
        try pm.run(["sync"])
        let conflicted = try pm.run(["list", "--json"]).stdout
        try #require(conflicted.contains("conflicts"), "a conflict to resolve: \(conflicted)")
        let session = try Session(pm: pm)
        defer { session.close() }
        #expect(session.waitFor { $0.contains("Conflict: Title") && $0.contains("c conflict") }, "\(session.screen)")
        try session.keys("c")
        #expect(
            session.waitFor {
                $0.contains("Keep which value") && $0.contains("(shown now)") && $0.contains("Budget 2027")
                    && $0.contains("Budget (draft)")
            },
            "\(session.screen)")
        let shown = session.screen.split(separator: "\n").first { $0.contains("(shown now)") }.map(String.init) ?? ""
        let other = shown.contains("Budget 2027") ? "Budget (draft)" : "Budget 2027"
        try session.keys("Down", "Enter")
        #expect(session.waitFor { !$0.contains("Conflict: Title") && $0.contains(other) }, "\(session.screen)")
        let after = try pm.run(["list", "--json"]).stdout
        #expect(after.contains("\"title\": \"\(other)\"") && !after.contains("conflicts"), "\(after)")
    }
}
