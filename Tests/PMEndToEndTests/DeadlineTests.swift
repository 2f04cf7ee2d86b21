import Foundation
import Testing

@Suite struct DeadlineTests {
    func due(_ pm: PMBinary, _ text: String, _ language: String) throws -> (String?, Run) {
        let run = try pm.run(["add", "t", "--due", text, "--json"], ["LANG": language])
        let object = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        return (object?["due"] as? String, run)
    }

    @Test func everyAcceptedFormInEachLanguage() throws {
        let pm = PMBinary()
        let cases: [(String, String, String)] = [
            ("en_US.UTF-8", "2026-12-01", "2026-12-01"), ("en_US.UTF-8", "today", "2026-11-21"),
            ("en_US.UTF-8", "tomorrow", "2026-11-22"), ("en_US.UTF-8", "+3d", "2026-11-24"),
            ("en_US.UTF-8", "01/12/2026", "2026-01-12"), ("en_US.UTF-8", "12/1/26", "2026-12-01"),
            ("fr_FR.UTF-8", "demain", "2026-11-22"), ("fr_FR.UTF-8", "aujourd'hui", "2026-11-21"),
            ("fr_FR.UTF-8", "aujourd\u{2019}hui", "2026-11-21"), ("fr_FR.UTF-8", "01/12/2026", "2026-12-01"),
            ("fr_FR.UTF-8", "1/12/2026", "2026-12-01"), ("fr_FR.UTF-8", "tomorrow", "2026-11-22"),
            ("fr_FR.UTF-8", "2026-12-01", "2026-12-01"),
            ("ko_KR.UTF-8", "오늘", "2026-11-21"), ("ko_KR.UTF-8", "내일", "2026-11-22"),
            ("ko_KR.UTF-8", "2026. 12. 1.", "2026-12-01"), ("ko_KR.UTF-8", "+0d", "2026-11-21"),
        ]
        for (language, text, expected) in cases {
            let (date, run) = try due(pm, text, language)
            #expect(date == expected, "\(language) '\(text)': \(run.stderr)")
        }
    }

    /// DESIGN.md §3 as people type: weekday names (the next such day), the
    /// day after tomorrow, +N with the language's units, dates without a
    /// year (the nearest such day), accents and case ignored. 2026-11-21 is
    /// a Saturday.
    @Test func wordsAsPeopleTypeThem() throws {
        let pm = PMBinary()
        let cases: [(String, String, String)] = [
            ("fr_FR.UTF-8", "vendredi", "2026-11-27"), ("fr_FR.UTF-8", "Samedi", "2026-11-28"),
            ("fr_FR.UTF-8", "après-demain", "2026-11-23"), ("fr_FR.UTF-8", "APRES DEMAIN", "2026-11-23"),
            ("fr_FR.UTF-8", "+3j", "2026-11-24"), ("fr_FR.UTF-8", "+1s", "2026-11-28"), ("fr_FR.UTF-8", "+2w", "2026-12-05"),
            ("fr_FR.UTF-8", "1/12", "2026-12-01"), ("fr_FR.UTF-8", "15/01", "2027-01-15"), ("fr_FR.UTF-8", "20/11", "2026-11-20"),
            ("fr_FR.UTF-8", "1 déc. 2026", "2026-12-01"), ("fr_FR.UTF-8", "1 déc.", "2026-12-01"),
            ("ko_KR.UTF-8", "금요일", "2026-11-27"), ("ko_KR.UTF-8", "모레", "2026-11-23"), ("ko_KR.UTF-8", "+3일", "2026-11-24"),
            ("ko_KR.UTF-8", "+1주", "2026-11-28"), ("ko_KR.UTF-8", "12. 1.", "2026-12-01"),
            ("ko_KR.UTF-8", "12월 1일", "2026-12-01"),
            ("en_US.UTF-8", "fri", "2026-11-27"), ("en_US.UTF-8", "+1w", "2026-11-28"), ("en_US.UTF-8", "12/1", "2026-12-01"),
            ("en_US.UTF-8", "Dec 1", "2026-12-01"), ("en_US.UTF-8", "saturday", "2026-11-28"),
        ]
        for (language, text, expected) in cases {
            let (date, run) = try due(pm, text, language)
            #expect(date == expected, "\(language) '\(text)': \(run.stderr)")
        }
    }

    /// A table adds words; it never changes what a built-in form means.
    @Test func aTableCannotRedefineABuiltInForm() throws {
        let pm = PMBinary(language: "fr_FR.UTF-8")
        let dir = pm.home.file("tables")
        try FileManager.default.createDirectory(atPath: dir + "/fr.lproj", withIntermediateDirectories: true)
        let table = """
            "date.tomorrow" = "today|+5d|2026-01-01|bientôt";
            "date.unitDay" = "w|d|x";
            "date.friday" = "tomorrow|vendredi";
            "column.done" = "todo|FINI";
            """
        try Data(table.utf8).write(to: URL(fileURLWithPath: dir + "/fr.lproj/Localizable.strings"))
        let tables = ["PM_LOCALIZATION_DIR": dir]
        for (text, expected) in [
            ("today", "2026-11-21"), ("+5d", "2026-11-26"), ("2026-01-01", "2026-01-01"), ("tomorrow", "2026-11-22"),
            ("+2w", "2026-12-05"), ("bientôt", "2026-11-22"), ("+2x", "2026-11-23"),
        ] {
            let run = try pm.run(["add", "t", "--due", text, "--json"], tables)
            let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            #expect(object?["due"] as? String == expected, "\(text): \(run.stderr)")
        }
        let id = try pm.run(["add", "x"], tables).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try pm.run(["move", id, "todo"], tables)
        let shown = try pm.run(["show", id, "--json"], tables).stdout
        #expect(shown.contains("\"state\": \"todo\""), "todo is always TODO")
    }

    /// With the real clock: a weekday is 1 to 7 days ahead, on that weekday.
    @Test func weekdaysWithTheRealClock() throws {
        var pm = PMBinary(language: "fr_FR.UTF-8")
        pm.environment["PM_NOW"] = nil
        let today = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date())
        for (index, word) in ["dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"].enumerated() {
            let (date, run) = try due(pm, word, "fr_FR.UTF-8")
            let parsed = try #require(date.flatMap { ISO8601DateFormatter.date($0) }, "\(word): \(run.stderr)")
            let components = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: parsed)
            #expect(components.weekday == index + 1, "\(word)")
            let now = Calendar(identifier: .gregorian).date(
                from: DateComponents(year: today.year, month: today.month, day: today.day))!
            let days = Int((parsed.timeIntervalSince(now) / 86_400).rounded())
            #expect((1...7).contains(days), "\(word): \(days) days ahead")
        }
    }

    @Test func refusalsShowTheAcceptedFormsInTheReadersLanguage() throws {
        let pm = PMBinary()
        let cases: [(String, String, String)] = [
            ("en_US.UTF-8", "2026-02-30", "or a date like 12/1/26"),
            ("en_US.UTF-8", "demain", "today, tomorrow"),
            (
                "fr_FR.UTF-8", "31/02/2026",
                "aujourd’hui, demain, après-demain, un jour de la semaine (vendredi, ce vendredi, vendredi prochain"
            ),
            ("fr_FR.UTF-8", "31/02", "ou une date comme 01/12/2026 (l’année peut être omise)"),
            ("ko_KR.UTF-8", "2026. 2. 30.", "오늘, 내일, 모레, 요일(금요일, 다음 주 금요일), 3일 후, +3일, +2주, 12월 1일"),
            ("fr_FR.UTF-8", "+3x", "dans 3\u{00A0}jours, +3j, +2s, 1er déc."),
            ("en_US.UTF-8", "+3j", "in 3 days, +3d, +2w, Dec 1"),
            ("ko_KR.UTF-8", "demain", "오늘, 내일"),
        ]
        for (language, text, forms) in cases {
            let (date, run) = try due(pm, text, language)
            #expect(date == nil)
            #expect(run.status == 64, "\(language) \(text)")
            #expect(run.stderr.contains(forms), "\(language) \(text): \(run.stderr)")
        }
        #expect(pm.boardBytes() == nil)
    }

    @Test func remindersBeforeAndAfterNineShownOnceAndAgainWithAll() throws {
        let pm = PMBinary()
        try pm.run(["add", "Report", "--due", "2026-11-21"])
        let early = try pm.run(["remind"], ["PM_NOW": "2026-11-21T08:59:00Z"])
        #expect(early.status == 0 && early.stdout.isEmpty)
        let first = try pm.run(["remind"], ["PM_NOW": "2026-11-21T09:00:00Z"])
        #expect(first.status == 0)
        #expect(first.stdout == "Reminder: 'Report' is due today (Nov 21, 2026).\n")
        let second = try pm.run(["remind"], ["PM_NOW": "2026-11-21T12:00:00Z"])
        #expect(second.status == 0 && second.stdout.isEmpty, "shown once")
        #expect(try pm.run(["remind", "--all"], ["PM_NOW": "2026-11-21T12:00:00Z"]).stdout.contains("'Report'"))
        // Another user on the same board has not seen it yet.
        #expect(try pm.run(["remind"], ["PM_NOW": "2026-11-21T12:00:00Z", "PM_USER": "camille"]).stdout.contains("'Report'"))
        let korean = try pm.run(["remind", "--all"], ["PM_NOW": "2026-11-21T12:00:00Z", "LANG": "ko_KR.UTF-8"])
        #expect(korean.stdout == "알림: 'Report'의 마감일이 오늘(2026년 11월 21일)입니다.\n")
    }

    @Test func noReminderForDoneDeletedPastOrRedatedTasksAndANewOneOnTheNewDay() throws {
        let pm = PMBinary()
        let done = try pm.run(["add", "done", "--due", "2026-11-21"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let deleted = try pm.run(["add", "deleted", "--due", "2026-11-21"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try pm.run(["add", "past", "--due", "2026-11-20"])
        let redated = try pm.run(["add", "redated", "--due", "2026-11-21"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try pm.run(["move", done, "done"])
        try pm.run(["delete", deleted])
        try pm.run(["edit", redated, "--due", "2026-11-23"])
        let today = try pm.run(["remind", "--all"], ["PM_NOW": "2026-11-21T10:00:00Z"])
        #expect(today.status == 0 && today.stdout.isEmpty, "\(today.stdout)")
        let newDay = try pm.run(["remind"], ["PM_NOW": "2026-11-23T09:01:00Z"])
        #expect(newDay.stdout == "Reminder: 'redated' is due today (Nov 23, 2026).\n")
    }

    @Test func theReminderTimeIsASettingAndZonesMatter() throws {
        let pm = PMBinary()
        try pm.run(["add", "early bird", "--due", "2026-11-21"])
        #expect(
            try pm.run(["remind"], ["PM_NOW": "2026-11-21T07:45:00Z", "PM_REMIND_AT": "07:30"]).stdout.contains("early bird"))
        let bad = try pm.run(["remind"], ["PM_REMIND_AT": "25:00"])
        #expect(bad.status == 64)
        // 00:30 UTC on the 21st is 09:30 in Seoul but 16:30 on the 20th in Los Angeles.
        #expect(
            try pm.run(["remind", "--all"], ["PM_NOW": "2026-11-21T00:30:00Z", "TZ": "Asia/Seoul"]).stdout.contains("early bird"))
        #expect(try pm.run(["remind", "--all"], ["PM_NOW": "2026-11-21T00:30:00Z", "TZ": "America/Los_Angeles"]).stdout.isEmpty)
    }

    @Test func remindOnAMissingBoardIsQuietAndSucceeds() throws {
        let pm = PMBinary()
        let run = try pm.run(["remind"])
        #expect(run.status == 0 && run.stdout.isEmpty && run.stderr.isEmpty)
    }
}

extension ISO8601DateFormatter {
    /// `2026-11-27` at midnight UTC.
    static func date(_ day: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.date(from: day)
    }
}
