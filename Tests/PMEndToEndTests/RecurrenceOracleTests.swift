import Foundation
import PMCore
import PMTestSupport
import Testing

/// Each rule's dates against python-dateutil's rrule, an independent
/// implementation of iCalendar's recurrence (RFC 5545): thousands of
/// rules drawn at random (every frequency, intervals, days of the week,
/// days of the month, the nth weekday from either end) from starts across
/// month ends and leap days, each asked for its next dates after a day
/// drawn near the start and far past it.
@Suite struct RecurrenceOracleTests {
    struct Case: Codable {
        var rrule: String
        var start: String
        var after: String
        var pm: [String]
    }

    static func randomRule(_ random: inout SeededGenerator) -> Recurrence? {
        let frequency = Recurrence.Frequency.allCases[random.below(4)]
        let interval = [1, 1, 1, 2, 3, 4, 12, 53][random.below(8)]
        switch frequency {
        case .weekly:
            let days = random.below(3) == 0 ? [] : (1...7).filter { _ in random.below(3) == 0 }
            return Recurrence(.weekly, interval: interval, weekdays: days)
        case .monthly:
            switch random.below(3) {
            case 0: return Recurrence(.monthly, interval: interval)
            case 1: return Recurrence(.monthly, interval: interval, monthDay: [1, 15, 28, 29, 30, 31, -1][random.below(7)])
            default:
                let ordinal = [1, 2, 3, 4, 5, -1, -2, -5][random.below(8)]
                return Recurrence(.monthly, interval: interval, nthWeekday: .init(ordinal: ordinal, weekday: random.below(7) + 1))
            }
        default: return Recurrence(frequency, interval: interval)
        }
    }

    @Test func everyRuleGivesTheDatesDateutilGives() throws {
        var random = SeededGenerator(seed: 48)
        var cases: [Case] = []
        // Starts near month ends and leap days as often as anywhere.
        let starts = ["2024-02-29", "2024-01-31", "2025-12-31", "2026-03-29", "2026-10-25", "2028-02-28", "2026-11-30"]
        while cases.count < 2400 {
            guard let rule = Self.randomRule(&random) else { continue }
            let start: CivilDate
            if random.below(2) == 0 {
                start = try #require(CivilDate(iso: starts[random.below(starts.count)]))
            } else {
                start = try #require(CivilDate(daysSince1970: 19_000 + random.below(3_000)))
            }
            let after = try #require(start.adding(days: random.below(4) == 0 ? -3 : random.below(2_000)))
            var dates: [String] = []
            var last = after
            for _ in 0..<4 {
                guard let next = rule.occurrence(after: last, start: start) else { break }
                #expect(next > last)
                dates.append(next.description)
                last = next
            }
            cases.append(Case(rrule: rule.rrule, start: start.description, after: after.description, pm: dates))
            #expect(Recurrence(rrule: rule.rrule) == rule, "\(rule.rrule) reads back")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("recurrence-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONEncoder().encode(cases).write(to: file)
        let script = """
            import json, sys, datetime
            from dateutil.rrule import rrulestr
            cases = json.load(open(sys.argv[1]))
            wrong = 0
            for case in cases:
                start = datetime.datetime.fromisoformat(case["start"])
                rule = rrulestr("RRULE:" + case["rrule"] + ";WKST=MO", dtstart=start)
                last = datetime.datetime.fromisoformat(case["after"])
                dates = []
                for _ in range(4):
                    last = rule.after(last, inc=False)
                    if last is None or last.year > 9999:
                        break
                    dates.append(last.date().isoformat())
                if dates != case["pm"]:
                    wrong += 1
                    if wrong <= 10:
                        print(case["rrule"], "from", case["start"], "after", case["after"], "pm:", case["pm"], "dateutil:", dates)
            print("checked", len(cases), "wrong", wrong)
            sys.exit(1 if wrong else 0)
            """
        let (status, text) = try runPython(script, [file.path], needs: ["dateutil"])
        #expect(status == 0, "\(text)")
        #expect(text.contains("checked 2400 wrong 0"), "\(text)")
    }

    @Test func rulesPmCannotKeepAreRefused() {
        for text in [
            "", "FREQ=HOURLY", "FREQ=WEEKLY;INTERVAL=0", "FREQ=WEEKLY;INTERVAL=1001", "FREQ=DAILY;BYDAY=MO",
            "FREQ=MONTHLY;BYMONTHDAY=32", "FREQ=MONTHLY;BYMONTHDAY=0", "FREQ=MONTHLY;BYMONTHDAY=1;BYDAY=1MO",
            "FREQ=MONTHLY;BYDAY=6FR", "FREQ=WEEKLY;BYDAY=MO,MO", "FREQ=WEEKLY;FREQ=DAILY", "FREQ=WEEKLY;COUNT=3",
            "FREQ=WEEKLY;INTERVAL=+2", "FREQ=MONTHLY;BYDAY=1MO,2TU", "FREQ=YEARLY;BYMONTHDAY=3", "freq=weekly",
        ] {
            #expect(Recurrence(rrule: text) == nil, "\(text)")
        }
        #expect(Recurrence(rrule: "BYDAY=MO,FR;FREQ=WEEKLY;INTERVAL=2")?.rrule == "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR")
        #expect(Recurrence(rrule: "FREQ=MONTHLY;BYDAY=-1FR")?.nthWeekday == .init(ordinal: -1, weekday: 5))
    }

    /// A rule that never falls ends at the calendar's end rather than running on.
    @Test func aRuleThatNeverFallsHasNoNextDate() throws {
        let rule = try #require(Recurrence(.monthly, interval: 12, monthDay: 31))
        let april = try #require(CivilDate(iso: "2026-04-30"))
        #expect(rule.occurrence(after: april, start: april) == nil)
        let leap = try #require(Recurrence(.yearly))
        let day = try #require(CivilDate(iso: "2024-02-29"))
        #expect(leap.occurrences(start: day, count: 3).map(\.description) == ["2024-02-29", "2028-02-29", "2032-02-29"])
    }
}

extension SeededGenerator {
    /// A number in 0..<bound.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
