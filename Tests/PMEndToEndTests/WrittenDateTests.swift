import Foundation
import Testing

/// Deadlines as people write them, in each language (issue 21), through the
/// binary: full dates with and without the year, ordinals and abbreviations,
/// "next friday", "in 3 days"; a day that does not exist is said so; and what
/// `pm show` and the board display can always be typed back.
@Suite struct WrittenDateTests {
    /// Tuesday 24 November 2026.
    func pm(_ language: String) -> PMBinary {
        var pm = PMBinary(language: language)
        pm.environment["PM_NOW"] = "2026-11-24T10:00:00Z"
        return pm
    }

    func due(_ pm: PMBinary, _ text: String) throws -> String {
        let run = try pm.run(["add", "Task", "--due", text, "--json"])
        guard run.status == 0 else { return "error: " + run.stderr }
        let task = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        return task?["due"] as? String ?? "none"
    }

    @Test(arguments: [
        ("en_US.UTF-8", "Dec 3", "2026-12-03"), ("en_US.UTF-8", "December 3rd, 2026", "2026-12-03"),
        ("en_US.UTF-8", "the 3rd of December", "2026-12-03"), ("en_US.UTF-8", "3 Dec 2027", "2027-12-03"),
        ("en_US.UTF-8", "next friday", "2026-11-27"), ("en_US.UTF-8", "Friday next week", "2026-12-04"),
        ("en_US.UTF-8", "in 3 days", "2026-11-27"), ("en_US.UTF-8", "in 2 weeks", "2026-12-08"),
        ("en_US.UTF-8", "the day after tomorrow", "2026-11-26"),
        ("fr_FR.UTF-8", "1er décembre", "2026-12-01"), ("fr_FR.UTF-8", "3 déc. 2026", "2026-12-03"),
        ("fr_FR.UTF-8", "le 3 decembre", "2026-12-03"), ("fr_FR.UTF-8", "mardi 1er décembre", "2026-12-01"),
        // French readers mean next week's by "vendredi prochain", this week's by "ce vendredi" (issue 44, item 11).
        ("fr_FR.UTF-8", "vendredi prochain", "2026-12-04"), ("fr_FR.UTF-8", "vendredi de la semaine prochaine", "2026-12-04"),
        ("fr_FR.UTF-8", "ce vendredi", "2026-11-27"), ("fr_FR.UTF-8", "dans une semaine", "2026-12-01"),
        ("fr_FR.UTF-8", "dans deux jours", "2026-11-26"), ("fr_FR.UTF-8", "la semaine prochaine", "2026-11-30"),
        ("fr_FR.UTF-8", "hier", "2026-11-23"), ("en_US.UTF-8", "in a week", "2026-12-01"),
        ("en_US.UTF-8", "next week", "2026-11-30"), ("en_US.UTF-8", "yesterday", "2026-11-23"),
        ("ko_KR.UTF-8", "다음주금요일", "2026-12-04"), ("ko_KR.UTF-8", "이번 주 금요일", "2026-11-27"),
        ("ko_KR.UTF-8", "이번주 월요일", "2026-11-23"), ("ko_KR.UTF-8", "1/3", "2027-01-03"), ("ko_KR.UTF-8", "두 주 후", "2026-12-08"),
        ("ko_KR.UTF-8", "어제", "2026-11-23"),
        ("fr_FR.UTF-8", "dans 3 jours", "2026-11-27"), ("fr_FR.UTF-8", "dans 2 semaines", "2026-12-08"),
        ("fr_FR.UTF-8", "+3j", "2026-11-27"), ("fr_FR.UTF-8", "aujourd’hui", "2026-11-24"),
        ("ko_KR.UTF-8", "2026년 12월 3일", "2026-12-03"), ("ko_KR.UTF-8", "12월 3일", "2026-12-03"),
        ("ko_KR.UTF-8", "2027년 1월 5일 (화)", "2027-01-05"), ("ko_KR.UTF-8", "다음 주 금요일", "2026-12-04"),
        ("ko_KR.UTF-8", "다음 금요일", "2026-11-27"), ("ko_KR.UTF-8", "3일 후", "2026-11-27"), ("ko_KR.UTF-8", "2주 뒤", "2026-12-08"),
    ])
    func writtenDates(language: String, text: String, expected: String) throws {
        #expect(try due(pm(language), text) == expected, "\(language) \(text)")
    }

    /// A date typed in a form that reads two ways is said as the day pm chose,
    /// on standard error (standard output stays the new id); one that reads
    /// one way is not (issue 44, item 11).
    @Test(arguments: [
        ("en_US.UTF-8", "next friday", "Read 'next friday' as Friday, November 27, 2026."),
        ("fr_FR.UTF-8", "vendredi prochain", "«\u{202F}vendredi prochain\u{202F}» interprété comme le vendredi 4 décembre 2026."),
        ("ko_KR.UTF-8", "다음주금요일", "'다음주금요일'은 2026년 12월 4일 금요일로 읽었습니다."),
        ("ko_KR.UTF-8", "1/3", "'1/3'은 2027년 1월 3일 일요일로 읽었습니다."),
    ])
    func theDayChosenIsSaid(language: String, typed: String, said: String) throws {
        let pm = pm(language)
        try pm.run(["add", "First"])
        let run = try pm.run(["add", "Task", "--due", typed])
        #expect(run.status == 0 && run.stderr == said + "\n", "\(run.stderr)")
        #expect(run.stdout.count >= 5 && !run.stdout.contains(" "), "the id alone: \(run.stdout)")
        for plain in ["2026-12-04", "tomorrow", "+3d", "in 3 days"] {
            #expect(try pm.run(["add", "Task", "--due", plain], ["LANG": "en_US.UTF-8"]).stderr.isEmpty, "\(plain)")
        }
    }

    /// A written date that names no day, or words that are no date: refused
    /// in the reader's language, with the forms a person would type.
    @Test func wrongDatesAreSaidSo() throws {
        for (language, impossible, forms) in [
            ("en_US.UTF-8", "no such day", "next friday"), ("fr_FR.UTF-8", "n’existe pas", "vendredi prochain"),
            ("ko_KR.UTF-8", "없는 날짜", "다음 주 금요일"),
        ] {
            let pm = pm(language)
            #expect(try due(pm, "Feb 30").contains(impossible), "\(language)")
            #expect(try due(pm, "someday soon").contains(forms), "\(language)")
            #expect(try due(pm, "2026년 13월 1일").hasPrefix("error"), "\(language)")
        }
    }

    /// The date `pm show` prints, and the compact one a card shows at 80
    /// columns, typed back, name the same day.
    @Test func shownDatesCanBeTypedBack() throws {
        for language in ["en_US.UTF-8", "fr_FR.UTF-8", "ko_KR.UTF-8"] {
            let pm = pm(language)
            let id = try pm.run(["add", "Shown", "--due", "2027-03-05"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let show = try pm.run(["show", id]).stdout.split(separator: "\n")
            let labels = ["Due", "Échéance", "마감일"]
            let line = try #require(show.first { line in labels.contains { line.hasPrefix($0) } }, "\(show)")
            let shown = line.split(separator: " ", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            #expect(try due(pm, shown) == "2027-03-05", "\(language): \(shown)")
            try pm.run(["add", "Soon", "--due", "2026-12-09"])
            let list = try pm.run(["list"], ["COLUMNS": "80"]).stdout
            let compact = ["Dec 9", "9 déc.", "12월 9일", "2026. 12. 9."].first { list.contains($0) } ?? "?"
            #expect(try due(pm, compact) == "2026-12-09", "\(language): \(compact) in \(list)")
        }
    }
}
