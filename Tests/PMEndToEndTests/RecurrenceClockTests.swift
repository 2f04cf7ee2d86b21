import Foundation
import Testing

/// Recurring deadlines through the binary on the clock people have (issue
/// 48): the real one, and a faked one at month ends, a leap day, both
/// daylight-saving changes of Paris and New York, and a year's last second.
/// The dates pm gives — the first from today, then each next one as
/// occurrences are done — are checked against python-dateutil's rrule,
/// which knows nothing of pm.
@Suite(.serialized) struct RecurrenceClockTests {
    static let faketime = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"

    /// The deadlines pm gives a new series and its next two occurrences.
    func dates(_ pm: PMBinary, rule: String, _ extra: [String: String]) throws -> (rrule: String, dates: [String]) {
        let added = try pm.run(["add", "Standup", "--every", rule], extra)
        #expect(added.status == 0, "\(rule): \(added.stderr)")
        var id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        var dates: [String] = []
        var rrule = ""
        for step in 0..<3 {
            let shown = try pm.run(["show", id, "--json"], extra)
            let task = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
            dates.append(try #require(task["due"] as? String))
            rrule = try #require((task["recur"] as? [String: Any])?["rule"] as? String)
            guard step < 2 else { break }
            #expect(try pm.run(["done", id], extra).status == 0)
            let list = try pm.run(["list", "--json"], extra).stdout
            let open = try #require(try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [[String: Any]]).first {
                $0["state"] as? String == "todo"
            }
            id = try #require(open?["id"] as? String)
        }
        return (rrule, dates)
    }

    /// dateutil's first three dates of `rrule` from `today` on.
    func expected(_ rrule: String, today: String) throws -> [String] {
        let script = """
            import sys, datetime
            from dateutil.rrule import rrulestr
            today = datetime.datetime.fromisoformat(sys.argv[2])
            first = rrulestr(sys.argv[1], dtstart=today).after(today, inc=True)
            series = rrulestr(sys.argv[1], dtstart=first)
            dates = [first, series.after(first), series.after(series.after(first))]
            print(" ".join(d.date().isoformat() for d in dates))
            """
        let (status, text) = try runPython(script, [rrule, today], needs: ["dateutil"])
        #expect(status == 0, "\(text)")
        return text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").map(String.init)
    }

    @Test(arguments: [
        ("en_US.UTF-8", "Europe/Paris", "2028-02-28 12:00:00", "month on day 29"),
        ("fr_FR.UTF-8", "Europe/Paris", "2027-01-31 23:30:00", "le dernier jour du mois"),
        ("ko_KR.UTF-8", "America/New_York", "2026-12-31 23:59:30", "매주 금요일"),
        ("en_US.UTF-8", "Europe/Paris", "2027-03-28 01:30:00", "weekday"),
        ("fr_FR.UTF-8", "America/New_York", "2026-11-01 01:30:00", "tous les 2 jours"),
        ("ko_KR.UTF-8", "Asia/Seoul", "2024-02-29 10:00:00", "매년"),
        ("en_US.UTF-8", "America/New_York", "2027-03-14 03:30:00", "last friday of the month"),
        ("fr_FR.UTF-8", "Europe/Paris", "2026-10-25 02:30:00", "chaque semaine, le lundi et le jeudi"),
    ])
    func aFakedClockGivesTheDatesDateutilGives(language: String, zone: String, now: String, rule: String) throws {
        try #require(FileManager.default.fileExists(atPath: Self.faketime), "faketime is installed by .ci/run")
        var pm = PMBinary(language: language)
        pm.environment["PM_NOW"] = nil
        pm.environment["TZ"] = zone
        let clock = ["LD_PRELOAD": Self.faketime, "FAKETIME": "@" + now, "FAKETIME_DONT_RESET": "1"]
        let (rrule, dates) = try dates(pm, rule: rule, clock)
        let today = String(now.prefix(10))
        #expect(dates == (try expected(rrule, today: today)), "\(rule) (\(rrule)) from \(now) in \(zone)")
        #expect(dates[0] >= today, "the first deadline is never before today")
    }

    /// The real clock: today is whatever day the suite runs on; pm's dates
    /// are dateutil's from that day (read before and after, in case
    /// midnight passed meanwhile).
    @Test(arguments: ["monday", "month on day 31", "last friday of the month", "2 weeks"])
    func theRealClockGivesTheDatesDateutilGives(rule: String) throws {
        var pm = PMBinary()
        // (Under `.ci/suite-any-day`, pm and this test read the same faked clock.)
        pm.environment["PM_NOW"] = nil
        let before = Self.today()
        let (rrule, dates) = try dates(pm, rule: rule, [:])
        let after = Self.today()
        let candidates = try Set([before, after].map { try expected(rrule, today: $0) })
        #expect(candidates.contains(dates), "\(rule) (\(rrule)): \(dates) against \(candidates)")
    }

    /// Today's date in UTC (the suite's time zone), as `YYYY-MM-DD`.
    static func today() -> String {
        var seconds = time(nil)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday)
    }
}
