import Foundation
import Testing

/// `pm list`'s filters through the binary (DESIGN.md §13): alone and
/// combined, with `--state` and `--grep`, dates typed in the reader's
/// language; a filtered view says so.
@Suite struct FilterEndToEndTests {
    /// Six tasks on 2026-11-24 (a Tuesday), PM_USER ji-woo.
    func board(_ language: String) throws -> PMBinary {
        var pm = PMBinary(language: language)
        pm.environment["PM_NOW"] = "2026-11-24T10:00:00Z"
        for (title, due, to) in [
            ("Overdue for ana", "2026-11-20", "ana"), ("Thursday for me", "2026-11-26", "ji-woo"),
            ("Nobody's", "2026-11-30", ""), ("Pair work", "", "ana,ji-woo"), ("Finished", "2026-11-01", "ji-woo"),
            ("December", "2026-12-10", "lee"),
        ] {
            var arguments = ["add", title]
            if !due.isEmpty { arguments += ["--due", due] }
            if !to.isEmpty { arguments += ["--to", to] }
            let run = try pm.run(arguments)
            #expect(run.status == 0, "\(run.stderr)")
            if title == "Finished" { try pm.run(["done", run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)]) }
        }
        return pm
    }

    func titles(_ pm: PMBinary, _ arguments: [String]) throws -> Set<String> {
        let run = try pm.run(["list", "--json"] + arguments)
        #expect(run.status == 0, "\(arguments): \(run.stderr)")
        let array = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]] ?? []
        return Set(array.compactMap { $0["title"] as? String })
    }

    @Test(arguments: [
        ("en_US.UTF-8", "next friday", "Dec 3"), ("fr_FR.UTF-8", "ce vendredi", "3 déc. 2026"),
        ("ko_KR.UTF-8", "다음 금요일", "12월 3일"),
    ])
    func filtersAloneAndCombined(language: String, friday: String, december3: String) throws {
        let pm = try board(language)
        #expect(try titles(pm, ["--mine"]) == ["Thursday for me", "Pair work", "Finished"])
        #expect(try titles(pm, ["--to", "ana"]) == ["Overdue for ana", "Pair work"])
        #expect(try titles(pm, ["--to", "ana,lee"]) == ["Overdue for ana", "Pair work", "December"])
        #expect(try titles(pm, ["--to", "ana", "--to", "lee"]) == ["Overdue for ana", "Pair work", "December"])
        #expect(try titles(pm, ["--unassigned"]) == ["Nobody's"])
        #expect(try titles(pm, ["--mine", "--unassigned"]) == ["Thursday for me", "Nobody's", "Pair work", "Finished"])
        #expect(try titles(pm, ["--overdue"]) == ["Overdue for ana"], "a done task is never overdue")
        #expect(try titles(pm, ["--due-before", friday]) == ["Overdue for ana", "Thursday for me", "Finished"])
        #expect(try titles(pm, ["--due-after", friday]) == ["Nobody's", "December"])
        #expect(try titles(pm, ["--due-after", friday, "--due-before", december3]) == ["Nobody's"])
        #expect(try titles(pm, ["--mine", "--due-before", friday, "--state", "todo"]) == ["Thursday for me"])
        #expect(try titles(pm, ["--mine", "--overdue"]) == [])
        #expect(try titles(pm, ["--to", "ana", "--grep", "pair"]) == ["Pair work"])
        #expect(try titles(pm, ["--to", "nobody-here"]) == [])
    }

    @Test(arguments: [
        ("en_US.UTF-8", "Filtered (--mine --overdue): 0 tasks of 6 shown.", "Filtered (--to ana): 2 tasks of 6 shown."),
        (
            "fr_FR.UTF-8", "Vue filtrée (--mine --overdue) : 0 tâche affichée sur 6.",
            "Vue filtrée (--to ana) : 2 tâches affichées sur 6."
        ),
        ("ko_KR.UTF-8", "필터 적용(--mine --overdue): 작업 6개 중 0개 표시", "필터 적용(--to ana): 작업 6개 중 2개 표시"),
    ])
    func aFilteredViewSaysSo(language: String, none: String, two: String) throws {
        let pm = try board(language)
        #expect(try pm.run(["list", "--mine", "--overdue"]).stdout.contains(none + "\n"))
        let list = try pm.run(["list", "--to", "ana"]).stdout
        #expect(list.contains(two + "\n"), "\(list)")
        #expect(list.contains("Pair work") && !list.contains("December"))
        let all = try pm.run(["list"]).stdout
        #expect(!all.contains("(--"), "an unfiltered view says nothing: \(all)")
    }

    @Test func aDateNobodyCanReadIsRefusedInTheReadersLanguage() throws {
        for (language, words) in [
            ("en_US.UTF-8", "no such day"), ("fr_FR.UTF-8", "n’existe pas"), ("ko_KR.UTF-8", "없는 날짜"),
        ] {
            let pm = try board(language)
            let run = try pm.run(["list", "--due-before", words])
            #expect(run.status == 64, "\(run.stderr)")
            #expect(run.stdout.isEmpty)
            let english = try pm.run(["list", "--due-before", "no such day"], ["LANG": "en_US.UTF-8"]).stderr
            #expect(language == "en_US.UTF-8" || run.stderr != english, "the message is in the reader's language")
        }
    }
}
