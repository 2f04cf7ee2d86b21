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
        ("fr_FR.UTF-8", "vendredi prochain", "2026-11-27"), ("fr_FR.UTF-8", "vendredi de la semaine prochaine", "2026-12-04"),
        ("fr_FR.UTF-8", "dans 3 jours", "2026-11-27"), ("fr_FR.UTF-8", "dans 2 semaines", "2026-12-08"),
        ("fr_FR.UTF-8", "+3j", "2026-11-27"), ("fr_FR.UTF-8", "aujourd’hui", "2026-11-24"),
        ("ko_KR.UTF-8", "2026년 12월 3일", "2026-12-03"), ("ko_KR.UTF-8", "12월 3일", "2026-12-03"),
        ("ko_KR.UTF-8", "2027년 1월 5일 (화)", "2027-01-05"), ("ko_KR.UTF-8", "다음 주 금요일", "2026-12-04"),
        ("ko_KR.UTF-8", "다음 금요일", "2026-11-27"), ("ko_KR.UTF-8", "3일 후", "2026-11-27"), ("ko_KR.UTF-8", "2주 뒤", "2026-12-08"),
    ])
    func writtenDates(language: String, text: String, expected: String) throws {
        #expect(try due(pm(language), text) == expected, "\(language) \(text)")
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
