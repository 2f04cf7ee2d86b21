import Foundation
import Testing

/// Recurring deadlines through the binary (issue 48), in each shipped
/// language: the rule typed in the reader's words and said back, `pm show`,
/// a completion and its next occurrence, undo taking both back, the end of
/// a series, the history, and the refusals — a rule pm cannot read names
/// the part, with its exit code, and nothing is written.
@Suite struct RecurrenceEndToEndTests {
    struct Words {
        var rule: String
        var echo: String
        var shown: String
        var next: String
        var undone: String
        var stopped: String
        var bad: String
        var badPart: String
    }

    static let words: [String: Words] = [
        "en_US.UTF-8": Words(
            rule: "monday and thursday",
            echo: "Repeats every Monday and Thursday (next: Monday, November 23, 2026).",
            shown: "every Monday and Thursday (after this one: Thursday, November 26, 2026)",
            next: "Next: 'Standup', due Thursday, November 26, 2026 (every Monday and Thursday).",
            undone: "Undid your last change: moved 'Standup' from TODO to DONE, and took back the next occurrence it made.",
            stopped: "'Standup' no longer repeats.", bad: "every blursday", badPart: "'blursday'"),
        "fr_FR.UTF-8": Words(
            rule: "lundi et jeudi",
            echo: "Répétition\u{A0}: chaque semaine, le lundi et le jeudi (prochaine échéance\u{A0}: lundi 23 novembre 2026).",
            shown: "chaque semaine, le lundi et le jeudi (après celle-ci\u{A0}: jeudi 26 novembre 2026)",
            next:
                "Suivante\u{A0}: «\u{202F}Standup\u{202F}», pour le jeudi 26 novembre 2026 (chaque semaine, le lundi et le jeudi).",
            undone: "l’occurrence suivante qu’elle avait créée a été retirée.",
            stopped: "«\u{202F}Standup\u{202F}» ne se répète plus.", bad: "chaque lundy", badPart: "«\u{202F}lundy\u{202F}»"),
        "ko_KR.UTF-8": Words(
            rule: "매주 월요일과 목요일",
            echo: "반복: 매주 월요일, 목요일 (다음: 2026년 11월 23일 월요일).",
            shown: "매주 월요일, 목요일 (그다음 회차: 2026년 11월 26일 목요일)",
            next: "다음: 'Standup', 마감 2026년 11월 26일 목요일 (매주 월요일, 목요일).",
            undone: "그때 만들어진 다음 회차도 지웠습니다.", stopped: "'Standup'의 반복을 멈췄습니다.", bad: "매주 월요일 3시",
            badPart: "'시'"),
    ]

    func tasks(_ pm: PMBinary) throws -> [[String: Any]] {
        let run = try pm.run(["list", "--json"])
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
    }

    @Test(arguments: CardPartsEndToEndTests.languages) func aSeriesInTheReadersLanguage(language: String) throws {
        let pm = PMBinary(language: language)
        let said = try #require(Self.words[language])
        // 2026-11-21 is a Saturday: the series' first deadline is Monday.
        let added = try pm.run(["add", "Standup", "--every", said.rule])
        #expect(added.status == 0 && added.stderr.contains(said.echo), "\(added.stderr)")
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try pm.run(["show", id]).stdout.contains(said.shown))
        // Done: the next occurrence, on Thursday, in TODO; both marked ↻.
        let done = try pm.run(["done", id])
        #expect(done.status == 0 && done.stdout.contains(said.next), "\(done.stdout)")
        var all = try tasks(pm)
        #expect(all.count == 2 && all.contains { $0["due"] as? String == "2026-11-26" && $0["state"] as? String == "todo" })
        #expect(try pm.run(["list"]).stdout.components(separatedBy: "↻").count == 3)
        // One undo takes the completion and the occurrence back.
        let undo = try pm.run(["undo"])
        #expect(undo.status == 0 && undo.stdout.contains(said.undone), "\(undo.stdout)")
        all = try tasks(pm)
        #expect(all.count == 1 && all.first?["state"] as? String == "todo")
        // The series ends; the history says so.
        #expect(try pm.run(["recur", id, "--stop"]).stdout.contains(said.stopped))
        #expect(try pm.run(["history", "--limit", "1"]).stdout.contains(said.stopped))
        #expect((try tasks(pm)).first?["recur"] is NSNull)
        // Refusals: the part pm cannot read is named; nothing is written.
        let before = pm.boardBytes()
        let bad = try pm.run(["add", "Other", "--every", said.bad])
        #expect(bad.status == 64 && bad.stderr.contains(said.badPart), "\(bad.stderr)")
        #expect(try pm.run(["recur", id]).status == 64, "neither a rule nor --stop")
        #expect(try pm.run(["recur", id, "week", "--stop"]).status == 64, "both")
        #expect(try pm.run(["recur", "ffff", said.rule]).status == 1, "no such task")
        #expect(pm.boardBytes() == before, "a refusal writes nothing")
    }

    /// Done three weeks late, a weekly task makes one next occurrence, in the
    /// future — not one for each week missed.
    @Test func aLateCompletionSkipsToTheFuture() throws {
        var pm = PMBinary()
        let id = try pm.run(["add", "Report", "--every", "week", "--due", "2026-11-02"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        pm.environment["PM_NOW"] = "2026-11-25T10:00:00Z"
        #expect(try pm.run(["done", id]).status == 0)
        let open = try tasks(pm).filter { $0["state"] as? String == "todo" }
        #expect(open.count == 1 && open.first?["due"] as? String == "2026-11-30", "\(open)")
    }
}
