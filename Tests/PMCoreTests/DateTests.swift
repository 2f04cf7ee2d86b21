import Foundation
import PMCore
import PMICU
import PMTestSupport
import Testing

@Suite struct DateInputTests {
    let today = CivilDate(year: 2026, month: 11, day: 21)!

    @Test func isoDatesWordsAndOffsetsAreAccepted() throws {
        #expect(try DateInput.parse("2026-12-01", today: today) == CivilDate(year: 2026, month: 12, day: 1))
        #expect(try DateInput.parse("today", today: today) == today)
        #expect(try DateInput.parse("Tomorrow", today: today) == CivilDate(year: 2026, month: 11, day: 22))
        #expect(try DateInput.parse("+0d", today: today) == today)
        #expect(try DateInput.parse("+10d", today: today) == CivilDate(year: 2026, month: 12, day: 1))
        #expect(try DateInput.parse("+365d", today: today) == CivilDate(year: 2027, month: 11, day: 21))
        #expect(try DateInput.parse("2028-02-29", today: today) == CivilDate(year: 2028, month: 2, day: 29))
    }

    @Test(arguments: [
        "2026-02-30", "2026-13-01", "2027-02-29", "2026-00-10", "garbage", "", "+d", "+-3d", "2026-1-1", "+99999999d",
        "yesterday",
    ])
    func otherFormsAreRefused(_ text: String) {
        #expect(throws: PMError.invalidDate(text)) { try DateInput.parse(text, today: today) }
    }

    @Test func civilDatesRoundTripThroughDayNumbers() {
        for days in [-719_162, -800, -1, 0, 1, 19_000, 20_413, 2_932_896] {
            #expect(CivilDate(daysSince1970: days)?.daysSince1970 == days)
        }
        #expect(CivilDate(daysSince1970: 0)?.description == "1970-01-01")
        #expect(CivilDate(year: 2026, month: 11, day: 21)?.adding(days: 10)?.description == "2026-12-01")
    }

    /// A board can hold years 1…9999 only: no day count, addition or clamp
    /// ever makes a date outside them, so pm never writes what it cannot read.
    @Test func noDateOutsideTheYearsABoardHoldsCanBeMade() {
        #expect(CivilDate.first.description == "0001-01-01" && CivilDate.last.description == "9999-12-31")
        #expect(CivilDate(daysSince1970: -719_163) == nil, "0000-12-31")
        #expect(CivilDate(daysSince1970: 2_932_897) == nil, "10000-01-01")
        #expect(CivilDate.last.adding(days: 1) == nil)
        #expect(CivilDate.first.adding(days: -1) == nil)
        #expect(CivilDate.first.adding(days: Int.min) == nil)
        #expect(CivilDate.last.adding(days: Int.max) == nil)
        #expect(CivilDate(clampingDaysSince1970: Int.max) == .last)
        #expect(CivilDate(clampingDaysSince1970: Int.min) == .first)
        #expect(CivilDate(iso: "0000-01-01") == nil && CivilDate(iso: "9999-12-31") == .last)
    }
}

@Suite struct OverdueTests {
    func task(due: String, state: TaskState = .todo) -> BoardTask {
        BoardTask(
            id: TaskID("00000000-0000-4000-8000-000000000001")!, title: "t", state: state, due: CivilDate(iso: due),
            createdAt: "x", updatedAt: "x")
    }

    func today(_ instant: String, _ zone: String) -> CivilDate {
        PMEnvironment.test(now: instant, timeZone: zone).today
    }

    @Test func aDeadlineOfTodayIsNotOverdueButYesterdaysIs() {
        let today = CivilDate(year: 2026, month: 11, day: 21)!
        #expect(!task(due: "2026-11-21").isOverdue(today: today))
        #expect(task(due: "2026-11-20").isOverdue(today: today))
        #expect(!task(due: "2026-11-20", state: .done).isOverdue(today: today))
        #expect(
            !BoardTask(id: TaskID("00000000-0000-4000-8000-000000000001")!, title: "t", createdAt: "x", updatedAt: "x").isOverdue(
                today: today))
    }

    @Test func seoulAndLosAngelesRightlyDisagreeAtTheSameInstant() {
        // 2026-11-21T20:00Z is already the 22nd in Seoul, still the 21st in Los Angeles.
        let instant = "2026-11-21T20:00:00Z"
        let seoul = today(instant, "Asia/Seoul")
        let losAngeles = today(instant, "America/Los_Angeles")
        #expect(seoul.description == "2026-11-22")
        #expect(losAngeles.description == "2026-11-21")
        let due21 = task(due: "2026-11-21")
        #expect(due21.isOverdue(today: seoul))
        #expect(!due21.isOverdue(today: losAngeles))
    }

    @Test func theDayBoundaryIsLocalMidnight() {
        #expect(today("2026-11-21T14:59:59Z", "Asia/Seoul").description == "2026-11-21")
        #expect(today("2026-11-21T15:00:00Z", "Asia/Seoul").description == "2026-11-22")
        #expect(today("2026-11-22T07:59:59Z", "America/Los_Angeles").description == "2026-11-21")
        #expect(today("2026-11-22T08:00:00Z", "America/Los_Angeles").description == "2026-11-22")
    }

    @Test func timestampsParseWithZonesAndFormatInUTC() throws {
        let utc = try #require(Zone(identifier: "UTC"))
        let seoul = try #require(Zone(identifier: "Asia/Seoul"))
        let a = try #require(Timestamp.parse("2026-11-21T10:00:00Z", zone: utc))
        #expect(Timestamp.string(from: a) == "2026-11-21T10:00:00.000Z")
        #expect(Timestamp.parse("2026-11-21T19:00:00+09:00", zone: utc) == a)
        #expect(Timestamp.parse("2026-11-21T19:00:00", zone: seoul) == a)
        #expect(
            Timestamp.parse("2026-11-21T10:00:00.250Z", zone: utc)?.timeIntervalSince1970 == a.timeIntervalSince1970 + 0.25)
        #expect(Timestamp.parse("2026-11-21T25:00:00Z", zone: utc) == nil)
        #expect(Timestamp.parse("yesterday", zone: utc) == nil)
    }

    @Test func tzNamesPOSIXStringsAndUnknownNamesAsGlibcReadsThem() {
        let winter = Date(timeIntervalSince1970: 1_795_287_900)  // 2026-11-21T19:05Z
        let summer = Date(timeIntervalSince1970: 1_783_000_000)  // 2026-07-02
        #expect(Zone(tz: "Asia/Seoul").secondsFromGMT(for: winter) == 9 * 3_600)
        #expect(Zone(tz: ":Europe/Paris").secondsFromGMT(for: summer) == 2 * 3_600)
        #expect(Zone(tz: "KST-9").secondsFromGMT(for: winter) == 9 * 3_600)
        #expect(Zone(tz: "EST5EDT").secondsFromGMT(for: summer) == -4 * 3_600)
        #expect(Zone(tz: "EST5EDT").secondsFromGMT(for: winter) == -5 * 3_600)
        #expect(Zone(tz: "Foo/Bar").secondsFromGMT(for: winter) == 0)
        #expect(Zone(tz: "").secondsFromGMT(for: winter) == 0)
        #expect(Zone(tz: "Asia/Seoul").icuIdentifier(at: winter) == "Asia/Seoul")
        // Fixed offsets by the names ICU looks up rather than parses.
        #expect(Zone(tz: "KST-9").icuIdentifier(at: winter) == "Etc/GMT-9")
        #expect(Zone(tz: "<-03>3").icuIdentifier(at: winter) == "Etc/GMT+3")
        #expect(Zone(tz: "UTC").icuIdentifier(at: winter) == "UTC")
        #expect(Zone(tz: "XXX0").icuIdentifier(at: winter) == "UTC")
        #expect(Zone(tz: "NPT-5:45").icuIdentifier(at: winter) == "GMT+05:45")
        #expect(Zone(tz: "ABC-15").icuIdentifier(at: winter) == "GMT+15:00")
        #expect(Zone(identifier: "Not/AZone") == nil)
    }

    @Test func pathsAreHandledLexically() {
        #expect(Paths.standardized("/a/./b/../c//d/") == "/a/c/d")
        #expect(Paths.standardized("/../x") == "/x")
        #expect(Paths.parent(of: "/a/b") == "/a")
        #expect(Paths.parent(of: "/b") == "/")
        #expect(Paths.parent(of: "b") == ".")
        #expect(Paths.lastComponent(of: "aside/x (conflicted copy).json") == "x (conflicted copy).json")
        #expect(" \t due \n".trimmingWhiteSpace() == "due")
        #expect("   ".trimmingWhiteSpace() == "")
    }
}

@Suite struct CompactDateTests {
    let today = CivilDate(year: 2026, month: 11, day: 21)!

    /// A list formats its deadlines with formatters opened once: what they
    /// say is what a formatter opened for each date says, near (month and
    /// day) and far (the whole date with its year, the month in words, as
    /// a card's full form says it: never a numeric date beside worded ones),
    /// in every calendar.
    @Test(arguments: ["en_US", "fr_FR", "ko_KR", "th_TH", "de_DE"])
    func formattersOpenedOnceSayWhatFreshOnesSay(locale: String) throws {
        let format = LocalDateFormat(locale: locale)
        let kept = LocalDateFormat.CompactFormatters(locale: locale)
        var near = 0
        for offset in stride(from: -800, through: 800, by: 37) {
            let date = try #require(CivilDate(daysSince1970: today.daysSince1970 + offset))
            let shown = format.compact(date, today: today, using: kept)
            #expect(shown == format.compact(date, today: today), "\(locale) \(date)")
            #expect(!shown.isEmpty)
            if LocalDateFormat.nearest(month: date.month, day: date.day, to: today) == date {
                near += 1
                #expect(shown != format.example(date), "\(locale) \(date): a near date without its year")
            } else {
                let whole = ICUDateFormatter(locale: locale, skeleton: "yMMMd", timeZone: "UTC")?.string(
                    millisecondsSince1970: Double(date.daysSince1970) * 86_400_000)
                #expect(shown == whole, "\(locale) \(date): a far date with its year")
            }
        }
        #expect(near > 5)
        #expect(
            LocalDateFormat(locale: "en_US").compact(
                CivilDate(year: 2026, month: 11, day: 20)!, today: today, using: .init(locale: "en_US")) == "Nov 20")
    }
}
