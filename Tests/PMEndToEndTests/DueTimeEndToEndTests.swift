import Foundation
import Testing

/// Deadlines with a time of day (issue 48, part 1) through the binary: typed
/// in each language, kept with their zone, shown to each reader at their
/// own time with the original zone named, overdue at the minute (not at
/// the end of the day), reminded an hour before, sorted by the instant,
/// and refused with nothing written when the time cannot be.
@Suite struct DueTimeEndToEndTests {
    func tasks(_ pm: PMBinary, _ extra: [String: String] = [:]) throws -> [[String: Any]] {
        let run = try pm.run(["list", "--json"], extra)
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
    }

    func time(of task: [String: Any]) -> (time: String?, zone: String?, at: String?) {
        let value = task["dueTime"] as? [String: Any]
        return (value?["time"] as? String, value?["zone"] as? String, value?["at"] as? String)
    }

    /// What a person types, and the day and time pm keeps (the clock says
    /// Saturday 2026-11-21, 11:00 in Paris).
    static let typed: [(language: String, text: String, due: String, time: String)] = [
        ("en_US.UTF-8", "2026-12-01 15:00", "2026-12-01", "15:00"),
        ("en_US.UTF-8", "friday 9am", "2026-11-27", "09:00"),
        ("en_US.UTF-8", "tomorrow at 3:30pm", "2026-11-22", "15:30"),
        ("en_US.UTF-8", "12am", "2026-11-21", "00:00"),
        ("fr_FR.UTF-8", "demain 15h", "2026-11-22", "15:00"),
        ("fr_FR.UTF-8", "vendredi à 9h30", "2026-11-27", "09:30"),
        ("fr_FR.UTF-8", "2026-12-01 18:45", "2026-12-01", "18:45"),
        ("ko_KR.UTF-8", "내일 오후 3시", "2026-11-22", "15:00"),
        ("ko_KR.UTF-8", "금요일 오전 9시 30분", "2026-11-27", "09:30"),
        ("ko_KR.UTF-8", "모레 21:00", "2026-11-23", "21:00"),
    ]

    @Test(arguments: typed.indices) func aTimeTypedInTheReadersWords(index: Int) throws {
        let (language, text, due, time) = Self.typed[index]
        let pm = PMBinary(language: language)
        let added = try pm.run(["add", "Meeting", "--due", text], ["TZ": "Europe/Paris"])
        #expect(added.status == 0, "\(text): \(added.stderr)")
        let task = try #require(try tasks(pm).first)
        #expect(task["due"] as? String == due, "\(text)")
        #expect(self.time(of: task).time == time && self.time(of: task).zone == "Europe/Paris", "\(text): \(task)")
    }

    /// 15:00 in Paris on December 1 is 23:00 in Seoul and 09:00 in New York;
    /// a reader in Paris sees 15:00 and no zone named.
    static let shown: [String: (seoul: String, newYork: String, paris: String, timeAlone: String)] = [
        "en_US.UTF-8": (
            "Dec 1, 2026, 23:00 (15:00 in Paris)", "Dec 1, 2026, 09:00 (15:00 in Paris)", "Dec 1, 2026, 15:00",
            "Changed the time of the deadline of 'Call' from 16:00 in Paris to 16:30 in Paris."
        ),
        "fr_FR.UTF-8": (
            "1er déc. 2026 à 23:00 (15:00 à Paris)", "1er déc. 2026 à 09:00 (15:00 à Paris)", "1er déc. 2026 à 15:00",
            "Heure de l’échéance de «\u{202F}Call\u{202F}»\u{A0}: 16:00 (Paris) → 16:30 (Paris)."
        ),
        "ko_KR.UTF-8": (
            "2026년 12월 1일 23:00(파리 기준 15:00)", "2026년 12월 1일 09:00(파리 기준 15:00)", "2026년 12월 1일 15:00",
            "'Call'의 마감 시각을 파리 기준 16:00에서 파리 기준 16:30으로 바꿨습니다."
        ),
    ]

    @Test(arguments: ["en_US.UTF-8", "fr_FR.UTF-8", "ko_KR.UTF-8"])
    func aParisDeadlineIsShownAtEachReadersTime(language: String) throws {
        let pm = PMBinary(language: language)
        let said = try #require(Self.shown[language])
        let id = try pm.run(["add", "Call", "--due", "2026-12-01 15:00 Europe/Paris"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let task = try #require(try tasks(pm).first)
        #expect(time(of: task).at == "2026-12-01T14:00:00.000Z", "\(task)")
        for (zone, expected) in [("Asia/Seoul", said.seoul), ("America/New_York", said.newYork), ("Europe/Paris", said.paris)] {
            let show = try pm.run(["show", id], ["TZ": zone]).stdout
            #expect(show.contains(expected), "\(zone): \(show)")
            if zone == "Europe/Paris" { #expect(!show.contains("Paris") && !show.contains("파리"), "\(show)") }
        }
        // The list says the reader's day and time on the card.
        let seoulList = try pm.run(["list"], ["TZ": "Asia/Seoul"]).stdout
        #expect(seoulList.contains("23:00"), "\(seoulList)")
        // The history says the deadline with its time; a time changed alone is said alone.
        #expect(try pm.run(["edit", id, "--due", "2026-12-02 16:00 Europe/Paris"]).status == 0)
        let history = try pm.run(["history", "--limit", "1"], ["TZ": "Europe/Paris"]).stdout
        let later = said.paris.replacingOccurrences(of: "15:00", with: "16:00").replacingOccurrences(of: "1er", with: "2")
            .replacingOccurrences(of: "Dec 1", with: "Dec 2").replacingOccurrences(of: "12월 1일", with: "12월 2일")
        #expect(history.contains(said.paris) && history.contains(later), "\(history)")
        #expect(try pm.run(["edit", id, "--due", "2026-12-02 16:30 Europe/Paris"]).status == 0)
        let alone = try pm.run(["history", "--limit", "1"], ["TZ": "Asia/Seoul"]).stdout
        #expect(alone.contains(said.timeAlone), "\(alone)")
    }

    /// Overdue comes at the minute of the deadline, not at the end of its
    /// day; a deadline without a time of the same day is not overdue.
    @Test func overdueComesAtTheTime() throws {
        let pm = PMBinary()
        let id = try pm.run(["add", "Timed", "--due", "2026-12-01 15:00 Europe/Paris"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try pm.run(["add", "Whole day", "--due", "2026-12-01"])
        let before = try tasks(pm, ["PM_NOW": "2026-12-01T13:59:59Z"])
        #expect(before.allSatisfy { $0["overdue"] as? Bool == false }, "\(before)")
        let after = try tasks(pm, ["PM_NOW": "2026-12-01T14:00:00Z"])
        #expect(after.first { $0["title"] as? String == "Timed" }?["overdue"] as? Bool == true)
        #expect(after.first { $0["title"] as? String == "Whole day" }?["overdue"] as? Bool == false)
        let late = try pm.run(["list", "--overdue"], ["PM_NOW": "2026-12-01T14:00:00Z"]).stdout
        #expect(late.contains("Timed") && !late.contains("Whole day"), "\(late)")
        let shown = try pm.run(["show", id], ["PM_NOW": "2026-12-01T14:00:00Z"]).stdout
        #expect(shown.contains("Dec 1, 2026, 14:00 (15:00 in Paris) (overdue)"), "\(shown)")
        #expect(!(try pm.run(["show", id], ["PM_NOW": "2026-12-01T13:59:00Z"]).stdout.contains("overdue")))
    }

    /// The reminder of a deadline with a time comes in the hour before it,
    /// not at 09:00; a whole day's still comes at 09:00.
    @Test func theReminderComesBeforeTheTime() throws {
        var pm = PMBinary()
        pm.environment["TZ"] = "Europe/Paris"
        try pm.run(["add", "Timed", "--due", "2026-12-01 15:00"])
        try pm.run(["add", "Whole day", "--due", "2026-12-01"])
        let morning = try pm.run(["remind"], ["PM_NOW": "2026-12-01T08:30:00Z"]).stdout
        #expect(morning.contains("Whole day") && !morning.contains("Timed"), "\(morning)")
        let early = try pm.run(["remind", "--all"], ["PM_NOW": "2026-12-01T12:59:00Z"]).stdout
        #expect(!early.contains("Timed"), "\(early)")
        let hourBefore = try pm.run(["remind"], ["PM_NOW": "2026-12-01T13:05:00Z"]).stdout
        #expect(hourBefore.contains("Timed") && hourBefore.contains("15:00"), "\(hourBefore)")
        let past = try pm.run(["remind", "--all"], ["PM_NOW": "2026-12-01T14:01:00Z"]).stdout
        #expect(!past.contains("Timed"), "a deadline already past gets none: \(past)")
    }

    /// Cards are ordered by the instant: 15:00 in Paris comes before 10:00
    /// in New York (16:00 in Paris) on the same day, and a whole day last.
    @Test func cardsAreSortedByTheInstant() throws {
        let pm = PMBinary()
        try pm.run(["add", "Whole day", "--due", "2026-12-01"])
        try pm.run(["add", "New York", "--due", "2026-12-01 10:00 America/New_York"])
        try pm.run(["add", "Paris", "--due", "2026-12-01 15:00 Europe/Paris"])
        #expect(try tasks(pm).map { $0["title"] as? String ?? "" } == ["Paris", "New York", "Whole day"])
    }

    /// A clock change's night: a time that does not exist is the same time
    /// an hour later on the clock; a time that happens twice is the first.
    static let changes: [(typed: String, at: String)] = [
        ("2026-03-29 02:30 Europe/Paris", "2026-03-29T01:30:00.000Z"),
        ("2026-10-25 02:30 Europe/Paris", "2026-10-25T00:30:00.000Z"),
        ("2026-03-08 02:30 America/New_York", "2026-03-08T07:30:00.000Z"),
        ("2026-11-01 01:30 America/New_York", "2026-11-01T05:30:00.000Z"),
        ("2026-07-01 12:00 Europe/Paris", "2026-07-01T10:00:00.000Z"),
    ]

    @Test(arguments: changes.indices) func aClockChangeNight(index: Int) throws {
        let pm = PMBinary()
        let (typed, at) = Self.changes[index]
        #expect(try pm.run(["add", "X", "--due", typed]).status == 0)
        #expect(time(of: try #require(try tasks(pm).first)).at == at, "\(typed)")
    }

    /// Times that cannot be, and a zone no system knows, are refused: exit
    /// 64, nothing written.
    static let impossible: [(typed: String, said: String)] = [
        ("2026-12-01 25:00", "'25:00' is not a time of day"), ("friday 13pm", "'13pm' is not a time of day"),
        ("2026-12-01 15:00 Mars/Olympus", "'Mars/Olympus' is not a time zone this system knows"),
        ("12:60", "'12:60' is not a time of day"), ("-1:00", "'-1:00' is not a date"),
        ("2026-12-01 1-2pm", "'2026-12-01 1-2pm' is not a date"), ("tomorrow Europe/Paris", "is not a date"),
    ]

    @Test(arguments: impossible.indices) func anImpossibleTimeIsRefused(index: Int) throws {
        let (typed, said) = Self.impossible[index]
        let pm = PMBinary()
        try pm.run(["add", "First"])
        let before = pm.boardBytes()
        let run = try pm.run(["add", "X", "--due=" + typed])
        #expect(run.status == 64 && run.stderr.contains(said), "\(typed): \(run.stderr)")
        #expect(pm.boardBytes() == before)
    }

    /// What people type in French and Korean beyond the plain forms (a
    /// native speaker's list): noon, half past, evening, 까지, a bare Korean
    /// hour (the afternoon's), a time alone keeping the card's day.
    static let spoken: [(language: String, text: String, due: String, time: String?)] = [
        ("fr_FR.UTF-8", "demain midi", "2026-11-22", "12:00"), ("fr_FR.UTF-8", "vendredi avant 17h", "2026-11-27", "17:00"),
        ("fr_FR.UTF-8", "8h du soir", "2026-11-21", "20:00"), ("fr_FR.UTF-8", "15h et demie", "2026-11-21", "15:30"),
        ("fr_FR.UTF-8", "demain 15 h 30", "2026-11-22", "15:30"), ("ko_KR.UTF-8", "내일 오후 3시까지", "2026-11-22", "15:00"),
        ("ko_KR.UTF-8", "내일까지", "2026-11-22", nil), ("ko_KR.UTF-8", "3시", "2026-11-21", "15:00"),
        ("ko_KR.UTF-8", "오후 3시 반", "2026-11-21", "15:30"), ("ko_KR.UTF-8", "저녁 7시", "2026-11-21", "19:00"),
        ("ko_KR.UTF-8", "아침 9시", "2026-11-21", "09:00"), ("en_US.UTF-8", "dec 1 3pm", "2026-12-01", "15:00"),
        ("en_US.UTF-8", "tomorrow noon", "2026-11-22", "12:00"),
    ]

    @Test(arguments: spoken.indices) func aTimeAsPeopleSayIt(index: Int) throws {
        let (language, text, due, time) = Self.spoken[index]
        let pm = PMBinary(language: language)
        let run = try pm.run(["add", "X", "--due", text])
        #expect(run.status == 0, "\(text): \(run.stderr)")
        let task = try #require(try tasks(pm).first)
        #expect(task["due"] as? String == due && self.time(of: task).time == time, "\(text): \(task)")
    }

    @Test func aTimeAloneKeepsTheCardsDay() throws {
        let pm = PMBinary()
        let id = try pm.run(["add", "X", "--due", "2026-12-10"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try pm.run(["edit", id, "--due", "15:00"]).status == 0)
        let task = try #require(try tasks(pm).first)
        #expect(task["due"] as? String == "2026-12-10" && time(of: task).time == "15:00", "\(task)")
    }

    /// Changing only the time is a change of the deadline: said with both
    /// times, and one undo puts the old time back; taking the time away
    /// leaves the whole day.
    @Test func editingTheTimeAndUndoingIt() throws {
        let pm = PMBinary()
        let id = try pm.run(["add", "Review", "--due", "2026-12-01 15:00"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let edit = try pm.run(["edit", id, "--due", "2026-12-01 16:30"])
        #expect(edit.stdout.contains("15:00") && edit.stdout.contains("16:30"), "\(edit.stdout)")
        #expect(time(of: try #require(try tasks(pm).first)).time == "16:30")
        #expect(try pm.run(["undo"]).status == 0)
        #expect(time(of: try #require(try tasks(pm).first)).time == "15:00")
        #expect(try pm.run(["edit", id, "--due", "2026-12-01"]).status == 0)
        let task = try #require(try tasks(pm).first)
        #expect(task["due"] as? String == "2026-12-01" && task["dueTime"] is NSNull, "\(task)")
    }

    /// With the real clock: a time earlier today has passed, one tomorrow
    /// has not (derived from the day pm itself says it is).
    @Test func theRealClock() throws {
        var pm = PMBinary.withoutFakedClock()
        pm.environment["PM_NOW"] = nil
        try pm.run(["add", "Past", "--due", "00:00"])
        try pm.run(["add", "Coming", "--due", "tomorrow 23:59"])
        let all = try tasks(pm)
        let past = try #require(all.first { $0["title"] as? String == "Past" })
        let coming = try #require(all.first { $0["title"] as? String == "Coming" })
        #expect(past["overdue"] as? Bool == true, "\(past)")
        #expect(coming["overdue"] as? Bool == false, "\(coming)")
        #expect(time(of: past).zone == "UTC")
    }

    /// A recurring deadline with a time keeps it on its next occurrence.
    @Test func theNextOccurrenceKeepsTheTime() throws {
        let pm = PMBinary()
        let id = try pm.run(["add", "Standup", "--every", "weekday", "--due", "monday 9:30"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try pm.run(["done", id]).status == 0)
        let next = try #require(try tasks(pm).first { $0["state"] as? String == "todo" })
        #expect(next["due"] as? String == "2026-11-24" && time(of: next).time == "09:30", "\(next)")
    }

    /// Through a spreadsheet and back: the time and its zone come back.
    @Test func aCSVRoundTripKeepsTheTime() throws {
        let pm = PMBinary()
        try pm.run(["add", "Call", "--due", "2026-12-01 15:00 Europe/Paris"])
        try pm.run(["add", "Whole day", "--due", "2026-12-03"])
        let file = pm.home.file("board.csv")
        #expect(try pm.run(["export", "csv", "--output", file]).status == 0)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("2026-12-01 15:00 Europe/Paris"), "\(text)")
        let other = PMBinary()
        let imported = try other.run(["import", "csv", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        let call = try #require(try tasks(other).first { $0["title"] as? String == "Call" })
        #expect(time(of: call).time == "15:00" && time(of: call).zone == "Europe/Paris", "\(call)")
        let whole = try #require(try tasks(other).first { $0["title"] as? String == "Whole day" })
        #expect(whole["dueTime"] is NSNull)
    }

    /// The author's zone as kept: a POSIX `TZ` keeps the offset in force at
    /// the time typed (summer's, the night before the clocks go back); a
    /// zone without a `/` (`Japan`) is typed back as it is shown; a zone the
    /// system's files know and its ICU may not (`posix/…`) is read from the files.
    @Test func theAuthorsZoneAsKept() throws {
        let pm = PMBinary()
        let cet = ["TZ": "CET-1CEST,M3.5.0,M10.5.0/3", "PM_NOW": "2026-10-20T10:00:00Z"]
        try pm.run(["add", "Summer", "--due", "2026-10-25 01:00"], cet)
        let summer = try #require(try tasks(pm).first)
        #expect(time(of: summer).zone == "+02:00" && time(of: summer).at == "2026-10-24T23:00:00.000Z", "\(summer)")
        let japan = PMBinary()
        try japan.run(["add", "J", "--due", "2026-12-01 15:00"], ["TZ": "Japan"])
        let file = japan.home.file("j.csv")
        #expect(try japan.run(["export", "csv", "--output", file]).status == 0)
        let other = PMBinary()
        let imported = try other.run(["import", "csv", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(time(of: try #require(try tasks(other).first)).zone == "Japan")
        if FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/posix/Asia/Tokyo") {
            let posix = PMBinary()
            try posix.run(["add", "T", "--due", "2026-12-01 15:00 posix/Asia/Tokyo"])
            #expect(time(of: try #require(try tasks(posix).first)).at == "2026-12-01T06:00:00.000Z")
        }
    }

    /// At the ends of the calendar: a time within the years a board holds
    /// is kept as typed (`--json` and the calendar stay well formed); one
    /// whose instant falls outside them is refused.
    @Test func theEndsOfTheCalendar() throws {
        let pm = PMBinary()
        try pm.run(["add", "Last", "--due", "9999-12-31 23:59 UTC"])
        #expect(try tasks(pm).compactMap { time(of: $0).at } == ["9999-12-31T23:59:00.000Z"])
        #expect(try pm.run(["export", "ics"]).stdout.contains("DTSTART:99991231T235900Z\r\n"))
        for typed in ["9999-12-31 23:59 -12:00", "0001-01-01 00:00 +14:00"] {
            let run = try pm.run(["add", "X", "--due", typed])
            #expect(run.status == 64 && run.stderr.contains("outside the years 1 to 9999"), "\(typed): \(run.stderr)")
        }
    }

    /// Zones no deadline can be kept in: leap-second clocks, offsets no clock
    /// keeps, names that mean another zone on each machine.
    @Test(arguments: ["right/Europe/Paris", "+15:00", "-13:00", "Etc/Unknown", "GMT+2359", "leapseconds"])
    func zonesNoDeadlineIsKeptIn(zone: String) throws {
        let pm = PMBinary()
        let run = try pm.run(["add", "X", "--due", "2026-12-01 15:00 " + zone])
        #expect(run.status == 64 && pm.boardBytes() == nil, "\(zone): \(run.stderr)")
    }

    /// A reminder shown is not shown again; one of a time moved is.
    @Test func aTimedReminderIsShownOnce() throws {
        let pm = PMBinary()
        let id = try pm.run(["add", "T", "--due", "2026-11-21 10:30"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try pm.run(["remind"]).stdout.contains("'T' is due Nov 21, 2026, 10:30."))
        #expect(try pm.run(["remind"]).stdout.isEmpty)
        #expect(try pm.run(["edit", id, "--due", "10:45"]).status == 0)
        #expect(try pm.run(["remind"]).stdout.contains("10:45"))
    }

    /// A time that cannot be is named, not a shorter reading of it.
    @Test func aKoreanAfternoonThirteenIsRefusedAsATime() throws {
        let pm = PMBinary(language: "ko_KR.UTF-8")
        let run = try pm.run(["add", "X", "--due", "금요일 오후 13시"])
        #expect(run.status == 64 && run.stderr.contains("'오후 13시'는 시각이 아닙니다"), "\(run.stderr)")
    }

    /// A POSIX `TZ` on the night its clocks skip an hour: 02:30 is kept as
    /// a named zone keeps it (an hour later on the clock), not an hour early.
    @Test func aPOSIXZonesSkippedHour() throws {
        let pm = PMBinary()
        try pm.run(["add", "Gap", "--due", "2027-03-28 02:30"], ["TZ": "CET-1CEST,M3.5.0,M10.5.0/3"])
        #expect(time(of: try #require(try tasks(pm).first)).at == "2027-03-28T01:30:00.000Z")
    }

    /// When the day there is not the reader's, the time there says its day.
    @Test(arguments: [
        ("en_US.UTF-8", "Dec 2, 2026, 04:00 (Dec 1, 2026, 20:00 in Paris)"),
        ("fr_FR.UTF-8", "2 déc. 2026 à 04:00 (1er déc. 2026 à 20:00 à Paris)"),
        ("ko_KR.UTF-8", "2026년 12월 2일 04:00(파리 기준 2026년 12월 1일 20:00)"),
    ])
    func anotherDayThereIsSaid(language: String, shown: String) throws {
        let pm = PMBinary(language: language)
        let id = try pm.run(["add", "Late call", "--due", "2026-12-01 20:00 Europe/Paris"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let show = try pm.run(["show", id], ["TZ": "Asia/Seoul"]).stdout
        #expect(show.contains(shown), "\(show)")
    }
}
