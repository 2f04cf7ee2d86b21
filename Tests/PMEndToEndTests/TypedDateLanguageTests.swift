import Foundation
import Testing

/// Dates, times and repeats typed as Germans and Japanese type them, read
/// through the German and Japanese tables alone: Japanese written without
/// spaces (`3日後`, `来週の金曜日`, `明日15時`, `毎週月曜日`) is cut into the
/// table's words; a day's word among fillers (`bis morgen`, `am Freitag`)
/// is that day. Today is Sunday 29 November 2026.
@Suite struct TypedDateLanguageTests {
    struct Read: Equatable {
        var due: String
        var time: String?
    }

    func read(_ typed: String, language: String, zone: String) throws -> Read? {
        let pm = PMBinary(language: language)
        let run = try pm.run(["add", "Aufgabe", "--due", typed, "--json"], ["PM_NOW": "2026-11-29T10:00:00Z", "TZ": zone])
        guard run.status == 0,
            let task = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
            let due = task["due"] as? String
        else { return nil }
        return Read(due: due, time: (task["dueTime"] as? [String: Any])?["time"] as? String)
    }

    @Test(
        arguments: [
            ("3日後", "2026-12-02", nil), ("３日後", "2026-12-02", nil), ("2週間後", "2026-12-13", nil),
            ("来週の金曜日", "2026-12-04", nil), ("明後日", "2026-12-01", nil), ("金曜日までに", "2026-12-04", nil),
            ("12月4日", "2026-12-04", nil), ("明日15時", "2026-11-30", "15:00"), ("明日の午後3時", "2026-11-30", "15:00"),
            ("明日　午前9時半", "2026-11-30", "09:30"), ("金曜日15時30分", "2026-12-04", "15:30"),
        ] as [(String, String, String?)])
    func japaneseAsTyped(typed: String, due: String, time: String?) throws {
        #expect(try read(typed, language: "ja_JP.UTF-8", zone: "Asia/Tokyo") == Read(due: due, time: time), "\(typed)")
    }

    @Test(
        arguments: [
            ("nächsten Freitag", "2026-12-04", nil), ("übermorgen", "2026-12-01", nil), ("in 3 Tagen", "2026-12-02", nil),
            ("am Freitag", "2026-12-04", nil), ("bis morgen", "2026-11-30", nil), ("morgen 15:30 Uhr", "2026-11-30", "15:30"),
            ("morgen um 9 Uhr", "2026-11-30", "09:00"), ("Freitag nächste Woche", "2026-12-04", nil),
        ] as [(String, String, String?)])
    func germanAsTyped(typed: String, due: String, time: String?) throws {
        #expect(try read(typed, language: "de_DE.UTF-8", zone: "Europe/Berlin") == Read(due: due, time: time), "\(typed)")
    }

    /// On the real clock (no PM_NOW), in the reader's zone: `3日後` is three
    /// days after the day pm calls today (`今日`), `明日15時` the next day at
    /// 15:00. Asked again if the day turned between the two answers.
    @Test func japaneseOnTheRealClock() throws {
        var pm = PMBinary(language: "ja_JP.UTF-8")
        pm.environment["PM_NOW"] = nil
        func due(_ typed: String) throws -> (String, String?) {
            let run = try pm.run(["add", "x", "--due", typed, "--json"], ["TZ": "Asia/Tokyo"])
            let task = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            return (task?["due"] as? String ?? "", (task?["dueTime"] as? [String: Any])?["time"] as? String)
        }
        func day(_ iso: String, plus days: Int) -> String? {
            guard let date = ISO8601DateFormatter().date(from: iso + "T12:00:00Z") else { return nil }
            return String(ISO8601DateFormatter().string(from: date.addingTimeInterval(Double(days) * 86_400)).prefix(10))
        }
        for _ in 0..<3 {
            let today = try due("今日").0
            let (inThree, later) = (try due("3日後"), try due("明日15時"))
            guard try due("今日").0 == today else { continue }
            #expect(inThree.0 == day(today, plus: 3) && inThree.1 == nil, "\(today): \(inThree)")
            #expect(later.0 == day(today, plus: 1) && later.1 == "15:00", "\(today): \(later)")
            return
        }
        Issue.record("the day turned three times while asking")
    }

    /// What is not a date stays refused, in the reader's language, and adds nothing.
    @Test func wordsThatAreNoDateAreRefused() throws {
        let pm = PMBinary(language: "ja_JP.UTF-8")
        // The part that is no date is named (the time of `明日明日15時` was read).
        for (typed, named) in [("あいうえお", "あいうえお"), ("3日前後", "3日前後"), ("明日明日15時", "明日明日")] {
            let run = try pm.run(["add", "x", "--due", typed])
            #expect(run.status == 64, "\(typed): \(run.stdout)\(run.stderr)")
            #expect(run.stderr.contains("「\(named)」は日付として読み取れません"), "\(run.stderr)")
        }
        let tasks = try JSONSerialization.jsonObject(with: Data(try pm.run(["list", "--json"]).stdout.utf8)) as? [Any]
        #expect(tasks?.isEmpty == true, "nothing was added")
    }

    /// Repeats typed without spaces, each said back in words that read back as the same rule.
    @Test(arguments: [
        ("毎週月曜日", "FREQ=WEEKLY;BYDAY=MO"), ("隔週金曜日", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR"),
        ("毎月第2火曜日", "FREQ=MONTHLY;BYDAY=2TU"), ("毎月最終金曜日", "FREQ=MONTHLY;BYDAY=-1FR"), ("毎月1日", "FREQ=MONTHLY;BYMONTHDAY=1"),
    ])
    func japaneseRepeatsAsTyped(typed: String, rule: String) throws {
        let pm = PMBinary(language: "ja_JP.UTF-8")
        let run = try pm.run(["add", "定例", "--every", typed, "--json"])
        #expect(run.status == 0, "\(typed): \(run.stderr)")
        #expect(run.stdout.contains(rule), "\(typed): \(run.stdout)")
        // pm says the rule back; what it says reads as the same rule.
        let added = try pm.run(["add", "定例", "--every", typed])
        let said = added.stdout + added.stderr
        guard let start = said.range(of: "繰り返し："), let end = said.range(of: "（次回") else {
            Issue.record("\(said)")
            return
        }
        let words = String(said[start.upperBound..<end.lowerBound])
        #expect(try pm.run(["add", "再", "--every", words, "--json"]).stdout.contains(rule), "\(words)")
    }
}
