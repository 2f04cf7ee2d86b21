import Foundation
import Testing

/// `pm export csv` and `pm import csv` (issue 25): what one writes, the
/// other reads back as the same board (ids aside); a spreadsheet's own CSV
/// in French or Korean comes in too.
@Suite struct CSVRoundTripTests {
    /// Every task's fields a person sees, in creation order (no ids, no times).
    func fields(_ pm: PMBinary) throws -> [[String]] {
        let run = try pm.run(["export", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let tasks = try #require(object["tasks"] as? [[String: Any]])
        return tasks.map { task in
            [
                task["title"] as? String ?? "", task["state"] as? String ?? "", task["due"] as? String ?? "-",
                (task["assignees"] as? [String] ?? []).joined(separator: "+"), task["body"] as? String ?? "",
                (task["labels"] as? [String] ?? []).joined(separator: "+"), task["priority"] as? String ?? "-",
                (task["recur"] as? [String: Any])?["rule"] as? String ?? "-",
                (task["recur"] as? [String: Any])?["until"] as? String ?? "-",
            ]
        }
    }

    @Test func exportedAndImportedBackItIsTheSameBoard() throws {
        let pm = PMBinary(language: "fr_FR.UTF-8")
        let titles = [
            "Réunion « équipe », salle 2", "=HYPERLINK(\"http://evil\")", "+1 for this", "-5 degrees", "@ana please",
            "'=quoted already", "'Tis the season", "보고서 \"최종\" 검토", "Plain",
        ]
        for (index, title) in titles.enumerated() {
            var arguments = ["add"]
            if index % 2 == 0 { arguments += ["--due", "2026-12-0\(index % 9 + 1)"] }
            if index % 3 == 0 { arguments += ["--to", "ana,ji-woo"] }
            if index == 1 { arguments += ["--body", "line one, with a comma\nline \"two\";\n\tindented"] }
            if index % 4 == 0 { arguments += ["--label", "ui,été,=sum"] }
            if index % 4 == 1 { arguments += ["--priority", index == 1 ? "haute" : "urgent"] }
            arguments += ["--", title]
            try pm.run(arguments, ["PM_NOW": "2026-11-21T10:00:0\(index)Z"])
        }
        let list = try pm.run(["list", "--json"]).stdout
        let ids = try #require(try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [[String: Any]]).compactMap {
            $0["id"] as? String
        }
        try pm.run(["move", String(ids[2].prefix(8)), "doing"])
        try pm.run(["move", String(ids[3].prefix(8)), "done"])
        // A recurring one (issue 48): its rule is a column of its own.
        let plain =
            try #require(
                try JSONSerialization.jsonObject(with: Data(try pm.run(["list", "--json"]).stdout.utf8)) as? [[String: Any]]
            ).first { $0["title"] as? String == "Plain" }?["id"] as? String
        #expect(try pm.run(["recur", try #require(plain), "tous les 15 du mois"]).status == 0)
        let csv = pm.home.file("board.csv")
        let export = try pm.run(["export", "csv", "--output", csv])
        #expect(export.status == 0 && export.stdout.contains("9 tâches écrites"), "\(export.stdout)\(export.stderr)")
        let text = try String(contentsOfFile: csv, encoding: .utf8)
        // What a French spreadsheet reads (issue 44, item 10): semicolons (a
        // comma is the decimal mark there) and the column names in French.
        #expect(
            text.hasPrefix("id;titre;colonne;échéance;assignés;description;étiquettes;priorité;répétition\r\n"),
            "\(text.prefix(80))")
        #expect(text.contains(";high;\r\n") && text.contains(";\"'=sum, ui, été\";;\r\n"), "keys, and labels as one cell")
        #expect(
            text.contains(";FREQ=MONTHLY;BYMONTHDAY=15\r\n") == false && text.contains(";\"FREQ=MONTHLY;BYMONTHDAY=15\"\r\n"),
            "the rule as an RRULE, quoted where it holds the separator")
        #expect(
            text.contains(";\"'=HYPERLINK(") && text.contains(";'+1 for this;") && text.contains(";'-5 degrees;"),
            "no formula runs")
        #expect(text.contains(";''=quoted already;") && text.contains(";'Tis the season;"))
        #expect(text.contains(";\"ana, ji-woo\";"), "names keep their commas, quoted")
        // For a script: pm's own header and commas, whatever the reader's language.
        let script = try pm.run(["export", "csv", "--headers", "en", "--delimiter", ","]).stdout
        #expect(
            script.hasPrefix("id,title,state,due,assignees,body,labels,priority,repeats\r\n") && script.contains(",'+1 for this,")
        )
        #expect(try pm.run(["export", "csv", "--delimiter", "tab"]).stdout.hasPrefix("id\ttitre\tcolonne"))

        // Into another board, in another language: the same board, ids aside.
        let other = PMBinary(language: "ko_KR.UTF-8")
        let run = try other.run(["import", "csv", csv])
        #expect(run.status == 0 && run.stdout.contains("작업 9개"), "\(run.stdout)\(run.stderr)")
        #expect(try fields(other) == (try fields(pm)))
        // Twice: nothing added. And into the board it came from: every row is one of its tasks.
        #expect(try other.run(["import", "csv", csv]).stdout.contains("이미 보드에 있어서"))
        let before = pm.boardBytes()
        let home = try pm.run(["import", "csv", csv])
        #expect(home.status == 0 && home.stdout.contains("déjà sur le tableau") && pm.boardBytes() == before, "\(home.stdout)")
        // The JSON export agrees with the CSV's, task for task.
        #expect(try fields(other).map(\.[0]) == titles)
    }

    /// Each reader's spreadsheet (issue 44, item 10): Korean and English
    /// write decimals with a point, so commas; each with its own header; each
    /// reads back into the same board; a delimiter or header pm does not
    /// know is a usage error in the reader's language.
    @Test(arguments: [
        ("ko_KR.UTF-8", "id,제목,열,마감,담당자,본문,라벨,우선순위,반복\r\n"),
        ("en_US.UTF-8", "id,title,state,due,assignees,body,labels,priority,repeats\r\n"),
        ("fr_FR.UTF-8", "id;titre;colonne;échéance;assignés;description;étiquettes;priorité;répétition\r\n"),
    ])
    func eachReadersSpreadsheetAndBack(language: String, header: String) throws {
        let pm = PMBinary(language: language)
        try pm.run([
            "add", "Budget 1,5 M€; revoir", "--to", "ana", "--due", "2026-12-03", "--body", "a;b,c", "--label", "q4,finance",
            "--priority", "low",
        ])
        // An RRULE with its end, typed as a calendar writes it.
        #expect(try pm.run(["add", "Deux", "--every", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;UNTIL=20270301"]).status == 0)
        let text = try pm.run(["export", "csv"]).stdout
        #expect(text.hasPrefix(header), "\(text.prefix(60))")
        let csv = pm.home.file("out.csv")
        #expect(try pm.run(["export", "csv", "--output", csv]).status == 0)
        let other = PMBinary(language: "en_US.UTF-8")
        #expect(try other.run(["import", "csv", csv]).status == 0)
        #expect(try fields(other) == (try fields(pm)))
        for (option, value) in [("--delimiter", "|"), ("--headers", "klingon")] {
            let refused = try pm.run(["export", "csv", option, value])
            #expect(
                refused.status == 64 && refused.stdout.isEmpty && refused.stderr.contains(option)
                    && refused.stderr.contains(value), "\(refused.stderr)")
        }
    }

    @Test func aSpreadsheetsOwnCSVInFrenchOrKorean() throws {
        let pm = PMBinary(language: "fr_FR.UTF-8")
        let french =
            "\u{FEFF}Titre;État;Échéance;Assignés;Priorité;Étiquettes;Récurrence\r\n"
            + "Préparer la démo;en cours;03/12/2026;ana;haute;\"démo, client\";\r\n"
            + "Relire;TERMINÉ;;;;;\r\n\r\n\"Appeler; puis écrire\";;2026-12-24;lee, ji-woo;Urgente;appel;chaque jeudi\r\n"
        let file = pm.home.file("tableur.csv")
        try french.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try pm.run(["import", "csv", file])
        #expect(run.status == 0 && run.stdout.contains("3 tâches ajoutées"), "\(run.stdout)\(run.stderr)")
        let rows = try fields(pm)
        #expect(rows.count == 3)
        // Priorité and Étiquettes are pm's columns: the task's own fields, not lines in its body.
        #expect(
            rows.contains(["Préparer la démo", "doing", "2026-12-03", "ana", "", "client+démo", "high", "-", "-"]), "\(rows)")
        #expect(rows.contains(["Relire", "done", "-", "", "", "", "-", "-", "-"]))
        // The rule in the spreadsheet's own words.
        #expect(
            rows.contains([
                "Appeler; puis écrire", "todo", "2026-12-24", "ji-woo+lee", "", "appel", "urgent", "FREQ=WEEKLY;BYDAY=TH", "-",
            ]), "\(rows)")

        let korean = PMBinary(language: "ko_KR.UTF-8")
        let sheet = korean.home.file("시트.csv")
        try "제목,상태,마감일,메모,라벨,우선순위\n회의록 정리,완료,2026-12-01,\"첫 줄\n둘째 줄\",\"회의, 문서\",낮음\n"
            .write(toFile: sheet, atomically: true, encoding: .utf8)
        #expect(try korean.run(["import", "csv", sheet]).status == 0)
        #expect(try fields(korean) == [["회의록 정리", "done", "2026-12-01", "", "첫 줄\n둘째 줄", "문서+회의", "low", "-", "-"]])
    }

    @Test(arguments: [
        ("who;state\nA;\n", "1:1", "title"),
        ("title,state\nA,someday\n", "2:3", "someday"),
        ("title,due\nA,2026-02-30\n", "2:3", "2026-02-30"),
        ("title,state\n\"A,todo\n", "2:1", "too early"),
        ("title,state\n\"A\"x,todo\n", "2:4", "well-formed"),
        ("title,body\nA,\"\u{202E}gpj.exe\"\n", "2:3", "U+202E"),
        ("title,id\nA,1\nB,1\n", "3:1", "twice"),
        ("title,assignees\nA,\"a\u{7}b\"\n", "2:3", "assignees"),
        ("title,priority\nA,someday\n", "2:3", "'someday' is not a priority"),
        ("title,labels\nA,\"ok, -x\"\n", "2:3", "labels"),
    ])
    func badCSVIsRefusedWithItsPlace(text: String, place: String, why: String) throws {
        let pm = PMBinary()
        try pm.run(["add", "Already here"])
        let before = pm.boardBytes()
        let file = pm.home.file("bad.csv")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try pm.run(["import", "csv", file])
        #expect(run.status == 65 && run.stderr.contains("bad.csv:" + place) && run.stderr.contains(why), "\(run.stderr)")
        #expect(!run.stderr.contains("\u{202E}") && pm.boardBytes() == before)
    }

    @Test func aDeviceOrAFileOfMoreValuesThanAnyExportIsRefusedInBoundedMemory() throws {
        let pm = PMBinary()
        let zero = try pm.run(["import", "csv", "/dev/zero"])
        #expect(zero.status == 65 && zero.stderr.contains("not a file or a pipe"), "\(zero.stderr)")
        let wide = pm.home.file("wide.csv")
        try ("title\n" + String(repeating: "a,", count: 2_100_000)).write(toFile: wide, atomically: true, encoding: .utf8)
        let cells = try pm.run(["import", "csv", wide])
        #expect(cells.status == 65 && cells.stderr.contains("more than 2000000 values"), "\(cells.stderr)")
        let ones = pm.home.file("ones.json")
        try ("[" + String(repeating: "1,", count: 2_100_000) + "1]").write(toFile: ones, atomically: true, encoding: .utf8)
        let values = try pm.run(["import", "taskwarrior", ones])
        #expect(values.status == 65 && values.stderr.contains("more than 2000000 values"), "\(values.stderr)")
        #expect(!FileManager.default.fileExists(atPath: pm.boardPath))
    }
}
