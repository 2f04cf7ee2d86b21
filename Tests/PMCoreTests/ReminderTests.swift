import Foundation
import PMTestSupport
import Testing

@testable import PMCore

@Suite struct LocalDateFormatTests {
    let day = CivilDate(year: 2026, month: 11, day: 21) ?? .first

    @Test func eachLocaleReadsItsOwnShortDate() {
        let fr = LocalDateFormat(locale: "fr_FR")
        let us = LocalDateFormat(locale: "en_US")
        let ko = LocalDateFormat(locale: "ko_KR")
        #expect(fr.parse("01/12/2026", today: day)?.description == "2026-12-01")
        #expect(fr.parse("1/12/26", today: day)?.description == "2026-12-01")
        #expect(us.parse("01/12/2026", today: day)?.description == "2026-01-12")
        #expect(us.parse("12/1/26", today: day)?.description == "2026-12-01")
        #expect(ko.parse("2026. 12. 1.", today: day)?.description == "2026-12-01")
        #expect(ko.parse("2026.12.1", today: day)?.description == "2026-12-01")
        #expect(ko.parse("26. 12. 1.", today: day)?.description == "2026-12-01")
    }

    @Test(arguments: ["31/02/2026", "13/13/2026", "01-12-2026", "31/02", "01/12/2026/1", "a1/12/2026", "", "123456/1/1"])
    func impossibleOrForeignShapesAreRefusedInFrench(_ text: String) {
        #expect(LocalDateFormat(locale: "fr_FR").parse(text, today: day) == nil)
    }

    @Test func examplesAreTheLocalesOwnFormat() throws {
        let date = try #require(CivilDate(iso: "2026-12-01"))
        #expect(LocalDateFormat(locale: "fr_FR").example(date) == "01/12/2026")
        #expect(LocalDateFormat(locale: "en_US").example(date) == "12/1/26")
        #expect(LocalDateFormat(locale: "ko_KR").example(date) == "26. 12. 1.")
    }

    @Test func wordsAndTheShortFormWorkThroughDateInput() throws {
        let today = try #require(CivilDate(iso: "2026-11-21"))
        let words = ["demain": 1, "aujourd'hui": 0]
        let fr = LocalDateFormat(locale: "fr_FR")
        #expect(try DateInput.parse("Demain", today: today, words: words, localFormat: fr).description == "2026-11-22")
        #expect(try DateInput.parse("aujourd\u{2019}hui", today: today, words: words, localFormat: fr) == today)
        #expect(try DateInput.parse("01/12/2026", today: today, words: words, localFormat: fr).description == "2026-12-01")
        #expect(throws: PMError.invalidDate("31/02/2026")) { try DateInput.parse("31/02/2026", today: today, localFormat: fr) }
    }
}

@Suite struct ReminderScheduleTests {
    let zone = Zone(identifier: "Asia/Seoul")!

    func task(_ title: String, due: String?, state: TaskState = .todo) -> BoardTask {
        BoardTask(
            id: CountingIDs(prefix: String(format: "%08x", abs(title.hashValue) % 0xFFFF_FFFF)).make(), title: title,
            state: state,
            due: due.flatMap(CivilDate.init(iso:)), createdAt: "x", updatedAt: "x")
    }

    func at(_ iso: String) -> Date { Timestamp.parse(iso, zone: zone)! }

    @Test func remindersFireAtNineLocalOnTheDeadlineDayForOpenTasksOnly() {
        let tasks = [
            task("today", due: "2026-11-21"), task("done today", due: "2026-11-21", state: .done),
            task("past", due: "2026-11-20"), task("tomorrow", due: "2026-11-22"), task("none", due: nil),
        ]
        let schedule = ReminderSchedule()
        #expect(schedule.due(tasks, now: at("2026-11-21T08:59:59"), zone: zone).isEmpty)
        #expect(schedule.due(tasks, now: at("2026-11-21T09:00:00"), zone: zone).map(\.title) == ["today"])
        #expect(schedule.due(tasks, now: at("2026-11-21T23:59:00"), zone: zone).map(\.title) == ["today"])
        #expect(schedule.due(tasks, now: at("2026-11-22T09:30:00"), zone: zone).map(\.title) == ["tomorrow"])
    }

    @Test func theTimeIsASetting() {
        #expect(ReminderSchedule(parsing: "07:30")?.minutesIntoDay == 450)
        #expect(ReminderSchedule(parsing: "7:30")?.minutesIntoDay == 450)
        for bad in ["24:00", "9", "09:60", "nine", "", "-1:00", "09:5"] {
            #expect(ReminderSchedule(parsing: bad) == nil, "\(bad)")
        }
        let early = ReminderSchedule(hour: 7, minute: 30)
        #expect(early.due([task("t", due: "2026-11-21")], now: at("2026-11-21T07:30:00"), zone: zone).count == 1)
    }

    @Test func aRedatedTaskHasANewKey() {
        var t = task("t", due: "2026-11-21")
        let first = ReminderSchedule.key(t)
        t.due = CivilDate(iso: "2026-11-23")
        #expect(ReminderSchedule.key(t) != first)
    }
}

@Suite struct CalendarExportTests {
    @Test func textIsEscapedAndLinesFoldedWithinSeventyFiveOctets() {
        #expect(CalendarExport.escape("a,b;c\\d\ne") == "a\\,b\\;c\\\\d\\ne")
        #expect(CalendarExport.escape("x\u{1B}y") == "x\\\\u{1B}y")
        let long = "SUMMARY:" + String(repeating: "한", count: 40)
        let folded = CalendarExport.fold(long)
        for line in folded.components(separatedBy: "\r\n") where !line.isEmpty {
            #expect(line.utf8.count <= 75)
        }
        #expect(folded.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\r\n", with: "") == long)
        #expect(CalendarExport.duration(540) == "PT9H")
        #expect(CalendarExport.duration(450) == "PT7H30M")
        #expect(CalendarExport.duration(0) == "PT0M")
    }
}
