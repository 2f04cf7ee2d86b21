import Foundation
import Testing

/// `pm list` and `pm show` in en, fr and ko, with a fixed clock, zone and
/// width, compared with the files in Fixtures/. Regenerate them with
/// `PM_UPDATE_GOLDEN=1 swift test --filter GoldenOutputTests`.
@Suite struct GoldenOutputTests {
    static let languages = ["en": "en_US.UTF-8", "fr": "fr_FR.UTF-8", "ko": "ko_KR.UTF-8", "en_XA": "en_XA.UTF-8"]

    static let cases: [(name: String, arguments: [String], extra: [String: String])] = [
        ("list-100", ["list", "--color", "never"], ["COLUMNS": "100"]),
        ("list-60-color", ["list", "--color", "always"], ["COLUMNS": "60"]),
        ("list-40-stacked", ["list"], ["COLUMNS": "40"]),
        // 80 columns, the commonest width: every deadline readable, overdue ones too.
        ("list-80", ["list", "--color", "never"], ["COLUMNS": "80"]),
        ("list-80-overdue", ["list", "--color", "never"], ["COLUMNS": "80", "PM_NOW": "2026-12-05T10:00:00Z"]),
        ("list-100-overdue", ["list", "--color", "never"], ["COLUMNS": "100", "PM_NOW": "2026-12-05T10:00:00Z"]),
        ("list-doing", ["list", "--state", "doing"], [:]),
        ("show-body", ["show", "3f2a"], ["TZ": "Asia/Seoul"]),
        ("show-escaped", ["show", "b2c3", "--color", "never"], [:]),
        ("history", ["history", "--limit", "12"], ["TZ": "Asia/Seoul"]),
        ("history-la", ["history", "--limit", "3"], ["TZ": "America/Los_Angeles"]),
    ]

    /// en_XA is the pseudo-locale: accented, lengthened English, so a hard-coded
    /// string shows up plain and a truncation bug loses its closing bracket.
    @Test(arguments: ["en", "fr", "ko", "en_XA"])
    func outputsMatchTheGoldenFiles(language: String) throws {
        let update = ProcessInfo.processInfo.environment["PM_UPDATE_GOLDEN"] == "1"
        let pm = PMBinary(language: Self.languages[language] ?? "C")
        try pm.useSampleBoard()
        // A fixed story for the history: every kind of change, an undo, by two people.
        let story: [([String], String, String)] = [
            (["move", "3f2a", "doing"], "ji-woo", "2026-11-21T08:00:00Z"),
            (["edit", "8c1d", "--title", "디자인 검토", "--due", "2026-12-03"], "ji-woo", "2026-11-21T08:30:00Z"),
            (["edit", "3f2b", "--body", "Salle 4"], "camille", "2026-11-21T09:00:00Z"),
            (["move", "a1b2", "todo"], "camille", "2026-11-21T09:15:00Z"),
            (["undo"], "camille", "2026-11-21T09:16:00Z"),
            (["delete", "9d0e"], "ji-woo", "2026-11-21T09:30:00Z"),
            (["edit", "3f2a", "--no-due"], "ji-woo", "2026-11-21T09:45:00Z"),
        ]
        for (arguments, user, time) in story {
            let run = try pm.run(arguments, ["PM_USER": user, "PM_NOW": time, "LANG": "C"])
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
        }
        let fixtures = PMBinary.packageRoot.appendingPathComponent("Tests/PMEndToEndTests/Fixtures/\(language)")
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        for golden in Self.cases {
            let run = try pm.run(golden.arguments, golden.extra)
            #expect(run.status == 0, "\(golden.name): \(run.stderr)")
            let file = fixtures.appendingPathComponent(golden.name + ".txt")
            if update {
                try Data(run.stdout.utf8).write(to: file)
                continue
            }
            let expected = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            #expect(run.stdout == expected, "\(language)/\(golden.name) differs; regenerate with PM_UPDATE_GOLDEN=1 if intended")
        }
    }
}

/// A deadline in another half-year at 80 columns keeps the month in words,
/// as every other date on the screen (issue 44, items 14 and 24): never
/// `31/12/2025` or `25. 12. 31.` beside `20 nov.`; an overdue one long past
/// is told to its month so that "overdue" still fits; and every deadline
/// line sits under its title.
@Suite struct FarDeadlinesTests {
    @Test(arguments: [
        ("en_US.UTF-8", "Dec 2025 (overdue)", "Mar 15, 2028", "Nov 20 (overdue)"),
        ("fr_FR.UTF-8", "déc. 2025 (en retard)", "15 mars 2028", "20 nov. (en retard)"),
        ("ko_KR.UTF-8", "2025년 12월 마감 지남", "2028년 3월 15일", "11월 20일 마감 지남"),
    ])
    func farDeadlinesKeepTheMonthInWords(language: String, farOverdue: String, farAhead: String, nearOverdue: String)
        throws
    {
        let pm = PMBinary(language: language)
        let now = ["PM_NOW": "2026-11-26T14:57:00Z"]
        for due in ["2025-12-31", "2026-11-20", "2026-12-01", "2028-03-15"] {
            try pm.run(["add", "Task", "--due", due], now)
        }
        let list = try pm.run(["list", "--color", "never"], now.merging(["COLUMNS": "80"]) { $1 }).stdout
        for said in [farOverdue, farAhead, nearOverdue] { #expect(list.contains(said), "\(said): \(list)") }
        #expect(list.range(of: #"\d+/\d+/\d+|\d+\. \d+\. \d+\."#, options: .regularExpression) == nil, "\(list)")
        // An overdue line keeps the column's indent (a long-past one in French or Korean needs more room).
        let lines = list.split(separator: "\n").filter { $0.contains(nearOverdue) }
        #expect(lines.count == 1 && lines.allSatisfy { $0.hasPrefix("     ") }, "\(list)")
    }
}
