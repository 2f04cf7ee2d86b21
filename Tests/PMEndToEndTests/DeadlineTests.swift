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

    @Test func refusalsShowTheAcceptedFormsInTheReadersLanguage() throws {
        let pm = PMBinary()
        let cases: [(String, String, String)] = [
            ("en_US.UTF-8", "2026-02-30", "or a date like 12/1/26"),
            ("en_US.UTF-8", "demain", "today, tomorrow"),
            ("fr_FR.UTF-8", "31/02/2026", "aujourd'hui, demain, +Nd (+3d : dans trois jours) ou une date comme 01/12/2026"),
            ("ko_KR.UTF-8", "2026. 2. 30.", "오늘, 내일, +Nd (+3d: 사흘 뒤), 또는 26. 12. 1. 같은 날짜"),
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
        #expect(korean.stdout == "알림: 'Report'의 마감일이 오늘(2026. 11. 21.)입니다.\n")
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
