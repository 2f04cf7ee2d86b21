import Foundation
import PMICU
import Testing

/// The board view counts terminal cells, not characters: in every language,
/// at every width, lines fit, columns start at one cell column, and no
/// character is broken.
@Suite struct LayoutTests {
    static let titles = [
        "디자인 검토 회의 준비하기 그리고 아주 긴 한국어 제목", "日本語のタイトルはとても長いです本当に長い", "Réunion d’équipe à Lyon: école, élève, œuvre",
        "Mixed 한국어 and 日本語 and français — e\u{301}te\u{301}", "short", "👍 emoji title 🎉 with more words after it",
        "Combining a\u{300}e\u{301}i\u{302}o\u{303}u\u{308} marks", "ＦＵＬＬＷＩＤＴＨ Ｌａｔｉｎ",
    ]

    func board() throws -> PMBinary {
        let pm = PMBinary()
        for (n, title) in Self.titles.enumerated() {
            let run = try pm.run(["add", title, "--due", n % 2 == 0 ? "2026-11-20" : "2026-12-24"])
            #expect(run.status == 0, "\(run.stderr)")
            let id = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            if n % 3 == 1 { try pm.run(["move", id, "doing"]) }
            if n % 3 == 2 { try pm.run(["move", id, "done"]) }
        }
        return pm
    }

    /// The cell offset at which each character of `line` starts.
    func offsets(_ line: String) -> [(Int, Character)] {
        var result: [(Int, Character)] = []
        var cell = 0
        for character in line {
            result.append((cell, character))
            cell += TerminalCells.width(of: character)
        }
        return result
    }

    @Test(arguments: [40, 80, 120])
    func everyLineFitsAndColumnsStayAligned(width: Int) throws {
        let pm = try board()
        for language in ["en_US.UTF-8", "fr_FR.UTF-8", "ko_KR.UTF-8"] {
            let run = try pm.run(["list", "--color", "never"], ["COLUMNS": String(width), "LANG": language])
            #expect(run.status == 0)
            #expect(!run.stdout.contains("\u{FFFD}"), "broken characters")
            let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for line in lines {
                #expect(
                    TerminalCells.width(of: line) <= width,
                    "\(language) \(width): '\(line)' is \(TerminalCells.width(of: line)) cells")
            }
            let columnWidth = (width - 4) / 3
            guard columnWidth >= 20 else {
                // Stacked: each card line starts at the left edge or with the deadline's indent.
                #expect(lines.contains { $0.hasPrefix("─") })
                continue
            }
            let starts = [0, columnWidth + 2, 2 * columnWidth + 4]
            // The rows of the three columns (up to the blank line before the footer).
            let rows = lines.prefix { !$0.isEmpty }
            #expect(rows.count >= 3)
            for line in rows {
                let cells = offsets(line)
                for start in starts.dropFirst() where TerminalCells.width(of: line) > start {
                    // A character begins exactly at the column's start: nothing straddles it.
                    #expect(cells.contains { $0.0 == start }, "\(language) \(width): nothing starts at \(start) in '\(line)'")
                    // The two-cell gap before a column is blank: nothing spills over.
                    let gap = cells.filter { $0.0 >= start - 2 && $0.0 < start }.map(\.1)
                    #expect(gap.allSatisfy { $0 == " " }, "\(language) \(width): spill at \(start) in '\(line)'")
                }
            }
            // Card lines: the id at the column start (four digits, or more
            // when two ids share them), the title one cell after it.
            for line in rows.dropFirst(2) {
                let cells = offsets(line)
                for start in starts {
                    guard let first = cells.firstIndex(where: { $0.0 == start }), cells[first].1.isHexDigit else { continue }
                    let digits = cells[first...].prefix { $0.1.isHexDigit }.count
                    #expect(digits >= 4 && cells.first { $0.0 == start + digits }?.1 == " ", "\(line)")
                }
            }
        }
    }

    @Test func titlesAreCutWithAnEllipsisOnAGraphemeBoundary() throws {
        let pm = try board()
        // Stacked at 30 cells, so each card line is `id title…` alone.
        let run = try pm.run(["list", "--color", "never"], ["COLUMNS": "30"])
        let cut = run.stdout.split(separator: "\n").filter { $0.hasSuffix("…") && $0.first?.isHexDigit == true }
        #expect(cut.count >= 4)
        for line in cut {
            let shown = Array(line.dropFirst(5).dropLast())
            // What is shown is whole characters of a title: a prefix by grapheme clusters.
            #expect(Self.titles.contains { Array($0).starts(with: shown) }, "'\(line)' is not a whole-character prefix")
        }
    }
}

@Suite struct CollationTests {
    @Test(arguments: [
        ("fr_FR.UTF-8", ["zoo", "Zèbre", "fin", "école", "eau"], ["eau", "école", "fin", "Zèbre", "zoo"]),
        ("en_US.UTF-8", ["banana", "Apple", "cherry", "apple"], ["apple", "Apple", "banana", "cherry"]),
        ("ko_KR.UTF-8", ["하늘", "가방", "나무", "다리"], ["가방", "나무", "다리", "하늘"]),
    ])
    func sortByTitleUsesTheReadersCollation(language: String, titles: [String], expected: [String]) throws {
        let pm = PMBinary(language: language)
        for title in titles { try pm.run(["add", title]) }
        let run = try pm.run(["list", "--sort", "title", "--json"])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(array.compactMap { $0["title"] as? String } == expected)
        // The board view shows the same order.
        let view = try pm.run(["list", "--sort", "title", "--color", "never"])
        let positions = expected.compactMap { view.stdout.range(of: $0)?.lowerBound }
        #expect(positions == positions.sorted())
    }

    @Test func theDefaultOrderIsByDeadlineThenCreation() throws {
        let pm = PMBinary()
        try pm.run(["add", "no deadline"], ["PM_NOW": "2026-11-21T10:00:00Z"])
        try pm.run(["add", "later", "--due", "2026-12-24"], ["PM_NOW": "2026-11-21T10:00:01Z"])
        try pm.run(["add", "sooner", "--due", "2026-12-01"], ["PM_NOW": "2026-11-21T10:00:02Z"])
        try pm.run(["add", "sooner too", "--due", "2026-12-01"], ["PM_NOW": "2026-11-21T10:00:03Z"])
        let titles = { (arguments: [String]) throws -> [String] in
            let run = try pm.run(["list", "--json"] + arguments)
            return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
                .compactMap { $0["title"] as? String }
        }
        #expect(try titles([]) == ["sooner", "sooner too", "later", "no deadline"])
        #expect(try titles(["--sort", "created"]) == ["no deadline", "later", "sooner", "sooner too"])
    }
}
