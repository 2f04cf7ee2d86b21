import Foundation
import PMTestSupport
import Testing

/// `pm export html` (issue 25), opened in a real browser: headless Chromium
/// from Debian's packages, at a phone's and a desktop's width, in three
/// languages. The screenshots stay in `$PM_SCREENSHOTS` (default
/// /tmp/pm-html-screenshots) to be looked at.
@Suite(.serialized, .onOwnThreads) struct HTMLExportTests {
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The board every page shows: one card overdue and assigned, one in
    /// conflict-free DOING, one done, and hostile titles that try to be markup.
    func board(_ language: String) throws -> PMBinary {
        let pm = PMBinary(language: language)
        let at = { (second: Int) in ["PM_NOW": "2026-11-21T09:00:0\(second)Z"] }
        try pm.run(["add", "--due", "2026-11-19", "--to", "ana", "--", "Rapport <b>final</b> & budget"], at(1))
        try pm.run(["add", "--due", "2026-12-24", "--", "<script>document.title='PWNED'</script>"], at(2))
        try pm.run(["add", "--body", "x", "--", "<img src=x onerror=\"document.body.setAttribute('data-pwned','1')\">"], at(3))
        try pm.run(["add", "--", "회의록 정리"], at(4))
        let ids = try JSONSerialization.jsonObject(with: Data(try pm.run(["list", "--json", "--sort", "created"]).stdout.utf8))
        let tasks = try #require(ids as? [[String: Any]]).compactMap { $0["id"] as? String }
        try pm.run(["move", String(tasks[2].prefix(8)), "doing"])
        try pm.run(["move", String(tasks[3].prefix(8)), "done"])
        return pm
    }

    /// Runs Chromium headless on `page`; the DOM after load, or a screenshot.
    func chromium(_ arguments: [String], page: String, profile: String) throws -> String {
        guard let chromium = Self.chromium else {
            Issue.record("chromium is missing: install the README's prerequisites line")
            throw CancellationError()
        }
        func run() throws -> ChildOutput {
            try runChild(
                chromium,
                ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=" + profile]
                    + arguments + ["file://" + page],
                environment: ["HOME": profile, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], stderr: .discard)
        }
        var process = try run()
        // 21: the profile (kept between runs, as CI caches it) is in use by
        // another Chromium, one still closing or another test run's: wait for it.
        for _ in 0..<120 where process.status == 21 {
            usleep(250_000)
            process = try run()
        }
        #expect(process.status == 0, "chromium \(arguments)")
        return String(decoding: process.stdout, as: UTF8.self)
    }

    @Test(arguments: [
        ("en_US.UTF-8", "en", ["TODO", "DOING", "DONE"], "Overdue: it was due Nov 19, 2026", "Assigned to @ana"),
        ("fr_FR.UTF-8", "fr", ["À FAIRE", "EN COURS", "TERMINÉ"], "En retard : échéance au 19 nov. 2026", "Assignée à @ana"),
        ("ko_KR.UTF-8", "ko", ["할 일", "진행 중", "완료"], "마감 지남: 마감일 2026년 11월 19일", "담당: @ana"),
    ])
    func thePageShowsTheBoardInTheReadersLanguageAndRunsNoScript(
        language: String, tag: String, columns: [String], overdue: String, assigned: String
    ) throws {
        let pm = try board(language)
        let page = pm.home.file("board.html")
        let run = try pm.run(["export", "html", "--output", page])
        #expect(run.status == 0, "\(run.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        // Every text escaped, a policy that forbids scripts, nothing fetched.
        #expect(html.contains("&lt;script&gt;document.title=&#39;PWNED&#39;&lt;/script&gt;"))
        #expect(!html.contains("<script") && !html.contains("<img") && !html.contains("onerror=\""))
        #expect(html.contains("Content-Security-Policy\" content=\"default-src 'none'; style-src 'sha256-"))
        #expect(!html.contains("http://") && !html.contains("https://"), "no network")

        let profile = "/var/tmp/pm-chromium-profile"
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        // (The browser writes a no-break space back as &nbsp;.)
        let dom = try chromium(["--dump-dom", "--virtual-time-budget=2000"], page: page, profile: profile)
            .replacingOccurrences(of: "&nbsp;", with: "\u{00A0}")
        #expect(dom.contains("<html lang=\"\(tag)\""), "\(dom.prefix(300))")
        // The three columns with their counts, as the browser built them.
        for (column, count) in zip(columns, [2, 1, 1]) {
            #expect(dom.contains("<h2>\(column) <span class=\"count\">\(count)</span></h2>"), "\(column)")
        }
        let dues = dom.split(separator: "\n").filter { $0.contains("class=\"due\"") }
        #expect(dom.contains(overdue) && dom.contains("class=\"card overdue\""), "overdue in red and in words: \(dues)")
        #expect(dom.contains(assigned))
        // No script ran: the title and the body are as written, and the hostile titles are text.
        #expect(!dom.contains("PWNED</title>") && !dom.contains("<body data-pwned"))
        #expect(dom.contains("&lt;img src=x onerror="))

        // Screenshots at a phone's and a desktop's width, kept to be looked at.
        let folder = ProcessInfo.processInfo.environment["PM_SCREENSHOTS"] ?? "/tmp/pm-html-screenshots"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, size) in [("phone", "390,844"), ("desktop", "1280,800")] {
            let shot = folder + "/board-\(tag)-\(name).png"
            try? FileManager.default.removeItem(atPath: shot)
            _ = try chromium(
                ["--screenshot=" + shot, "--window-size=" + size, "--hide-scrollbars"], page: page, profile: profile)
            let png = try #require(FileManager.default.contents(atPath: shot), "\(shot)")
            // PNG: the signature, then IHDR's width.
            #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == Int(size.split(separator: ",")[0]), "\(name): \(width)")
        }
    }

    @Test func aFilteredPageSaysSoAndShowsOnlyItsCards() throws {
        let pm = try board("en_US.UTF-8")
        let run = try pm.run(["export", "html", "--mine"], ["PM_USER": "ana"])
        #expect(run.status == 0 && run.stdout.contains("Filtered: --mine"))
        #expect(run.stdout.contains("Rapport &lt;b&gt;final&lt;/b&gt; &amp; budget") && !run.stdout.contains("회의록"))
        #expect(run.stdout.contains("@media (prefers-color-scheme:dark)") && run.stdout.contains("@media print"))
    }

    @Test func aCardInConflictIsMarkedWithBothValues() throws {
        let (pm, colleague, them) = try BoardTmuxTests.withColleague()
        let id = try pm.run(["add", "Budget"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try pm.run(["sync"])
        try pm.run(["sync"] + colleague, them)
        try pm.run(["edit", id, "--title", "Budget 2027"])
        try pm.run(["edit", id, "--title", "Budget <draft>"] + colleague, them)
        try pm.run(["sync"] + colleague, them)
        try pm.run(["sync"])
        let page = try pm.run(["export", "html"], ["LANG": "fr_FR.UTF-8"]).stdout
        #expect(page.contains("class=\"card conflict\""), "\(page)")
        #expect(page.contains("<p class=\"conflicted\">Conflit\u{00A0}: titre\u{00A0}: aussi "), "\(page)")
        #expect(page.contains("Budget &lt;draft&gt;") || page.contains("Budget 2027"))
    }
    /// What a native reader found on the page (issue 44, item 17): when the
    /// page was made is not read as when the board began; a card due today
    /// says so; a deletion and its undo are two different lines.
    @Test(arguments: [
        ("en_US.UTF-8", "This page was made on", "Due today (", "Undid: removed"),
        (
            "fr_FR.UTF-8", "Page générée le", "Échéance aujourd’hui (",
            "Modification annulée : la suppression de « Gone and back »"
        ),
        ("ko_KR.UTF-8", "이 페이지는", "오늘 마감(", "삭제를 되돌렸습니다."),
    ])
    func thePageSaysWhatItIsAndWhatIsDueTodayAndWhatWasUndone(language: String, made: String, today: String, undid: String)
        throws
    {
        let pm = PMBinary(language: language)
        try pm.run(["add", "Due now", "--due", "2026-11-21"])
        let gone = try pm.run(["add", "Gone and back"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try pm.run(["delete", gone])
        try pm.run(["undo"])
        let page = try pm.run(["export", "html"]).stdout
        #expect(page.contains(made) && page.contains(today), "\(page)")
        #expect(page.contains("class=\"due today\""), "\(page)")
        let newest = try #require(page.components(separatedBy: "<section class=\"newest\">").last)
        #expect(newest.contains(undid), "\(newest)")
        // Four lines: two added, one removed, and its undo said as one (it read as a second removal).
        #expect(newest.components(separatedBy: "<li>").count == 5, "\(newest)")
        #expect(newest.components(separatedBy: undid).count == 2, "\(newest)")
    }
}

/// A moment in a French sentence on the first of a month is an ordinal, as
/// French writes it: « le 1er décembre 2026 à 10:00 », never « le 1 décembre ».
@Suite struct FirstOfTheMonthTests {
    @Test(arguments: [
        ("fr_FR.UTF-8", "2026-12-01T10:00:00Z", "le 1er décembre 2026 à 10:00"),
        ("fr_FR.UTF-8", "2026-12-11T10:00:00Z", "le 11 décembre 2026 à 10:00"),
        ("en_US.UTF-8", "2026-12-01T10:00:00Z", "on December 1, 2026 at 10:00"),
    ])
    func theFirstOfAMonthReadsAsAnOrdinalInFrench(language: String, now: String, said: String) throws {
        let pm = PMBinary(language: language)
        try pm.run(["add", "Budget"], ["PM_NOW": now])
        let page = try pm.run(["export", "html"], ["PM_NOW": now, "TZ": "UTC"]).stdout
        #expect(page.contains(said), "\(page)")
    }
}
