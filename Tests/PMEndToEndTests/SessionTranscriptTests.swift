import Foundation
import PMTestSupport
import Testing

/// A whole session of two people sharing a board through a folder, in one
/// language: add, edit, move, undo, redo, a conflict and its choice, an
/// offline spell, history and the board, as the binary prints them. Compared
/// with Fixtures/<lang>/session.txt, which a native speaker reads line by
/// line. Regenerate with `PM_UPDATE_GOLDEN=1 swift test --filter SessionTranscriptTests`.
@Suite(.onOwnThreads) struct SessionTranscriptTests {
    /// The words each language types: a column, dates, titles.
    static let typed: [String: [String: String]] = [
        "en": ["doing": "doing", "done": "done", "in3": "+3d", "friday": "friday", "next": "next monday"],
        "fr": ["doing": "en cours", "done": "terminé", "in3": "+3j", "friday": "vendredi", "next": "lundi prochain"],
        "ko": ["doing": "진행 중", "done": "완료", "in3": "+3일", "friday": "금요일", "next": "다음 주 월요일"],
    ]

    final class Transcript {
        let pm: PMBinary
        let language: String
        var text = ""
        var minute = 0
        var ids: [String: String] = [:]
        /// Where ji-woo's home is: another person's, with their own board,
        /// state and key.
        let colleague: String

        init(language: String) {
            pm = PMBinary(language: GoldenOutputTests.languages[language] ?? "C")
            self.language = language
            colleague = pm.home.file("ji-woo")
            try? FileManager.default.createDirectory(atPath: pm.home.file("Sync"), withIntermediateDirectories: true)
        }

        /// Runs pm as `user` a minute after the last run and writes the
        /// command and what it printed; ids and this run's home are shown
        /// by name, so the transcript is the same on every run.
        @discardableResult
        func run(_ user: String, _ arguments: [String], expect status: Int32 = 0) throws -> String {
            minute += 1
            let time = String(format: "2026-11-23T%02d:%02d:00Z", 8 + minute / 60, minute % 60)
            var environment = ["PM_USER": user, "PM_NOW": time, "COLUMNS": "90"]
            if user != "camille" {
                environment["HOME"] = colleague
                environment["PM_BOARD"] = colleague + "/board.json"
            }
            let result = try pm.run(arguments, environment)
            #expect(result.status == status, "\(arguments): \(result.status) \(result.stderr)")
            let shown = arguments.map { $0.contains(" ") ? "\"\($0)\"" : $0 }.joined(separator: " ")
            text += named("\n[\(user)]$ pm \(shown)\n" + result.stdout + result.stderr)
            if result.status != 0 { text += "(exit \(result.status))\n" }
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// Adds a task and remembers its id under `name`.
        func add(_ user: String, _ name: String, _ arguments: [String]) throws {
            let short = try run(user, ["add"] + arguments)
            let board = user == "camille" ? [:] : ["HOME": colleague, "PM_BOARD": colleague + "/board.json"]
            let json = try pm.run(["show", short, "--json"], board).stdout
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            ids[name] = short
            ids[name + "…"] = object?["id"] as? String
            text = named(text)  // the id it just printed
        }

        func named(_ output: String) -> String {
            var output = output.replacingOccurrences(of: colleague, with: "/home/ji-woo")
                .replacingOccurrences(of: pm.home.path, with: ReadmeExampleTests.shownHome)
            for (name, id) in ids.sorted(by: { $0.value.count > $1.value.count }) {
                output = output.replacingOccurrences(of: id, with: name.hasSuffix("…") ? name.dropLast() + "(full)" : name)
            }
            return output
        }

        func id(_ name: String) -> String { ids[name] ?? name }
    }

    @Test(arguments: ["en", "fr", "ko"])
    func aWholeSessionReadsWell(language: String) throws {
        let words = Self.typed[language] ?? [:]
        let session = Transcript(language: language)
        let share = session.pm.home.file("Sync/team-board")
        try session.add("camille", "<A>", ["Write the quarterly report", "--due", "2026-12-01"])
        try session.add("camille", "<B>", ["Réunion d’équipe", "--due", words["in3"] ?? ""])
        try session.run("camille", ["edit", session.id("<A>"), "--title", "Write the Q4 report", "--due", words["friday"] ?? ""])
        try session.run("camille", ["edit", session.id("<A>"), "--title", "Write the Q4 report"])
        try session.run("camille", ["move", session.id("<A>"), words["doing"] ?? ""])
        try session.run("camille", ["undo"])
        try session.run("camille", ["redo"])
        // Taken back after a colon: French begins the inner sentence in lower case.
        try session.run("camille", ["edit", session.id("<B>"), "--no-due"])
        try session.run("camille", ["undo"])
        try session.run("camille", ["remote", "add", share])
        try session.run("camille", ["sync"])
        try session.run("ji-woo", ["remote", "add", share])
        try session.run("ji-woo", ["sync"])
        try session.add("ji-woo", "<C>", ["디자인 검토 회의 준비하기", "--due", words["next"] ?? ""])
        // The same title changed on both copies before either syncs.
        try session.run("ji-woo", ["edit", session.id("<B>"), "--title", "Réunion d’équipe à Lyon"])
        try session.run("camille", ["edit", session.id("<B>"), "--title", "Réunion d’équipe à Paris"])
        try session.run("ji-woo", ["sync"])
        try session.run("camille", ["sync"])
        try session.run("camille", ["show", session.id("<B>")])
        try session.run("camille", ["list"])
        try session.run("camille", ["edit", session.id("<B>"), "--title", "Réunion d’équipe à Lyon"])
        try session.run("camille", ["move", session.id("<C>"), words["done"] ?? ""])
        // The share goes away: work goes on offline, and sync says so.
        try FileManager.default.moveItem(atPath: share, toPath: session.pm.home.file("Sync/unmounted"))
        try session.run("camille", ["delete", session.id("<A>")])
        try session.run("camille", ["sync"], expect: 75)
        try session.run("camille", ["list"])
        try session.run("camille", ["status"])
        try session.run("camille", ["history", "--limit", "8"])
        let board = try World.boardScreen(
            session.pm, language: GoldenOutputTests.languages[language] ?? "C",
            extra: ["PM_NOW": "2026-11-23T10:00:00Z", "PM_USER": "camille"])
        session.text += "\n[camille]$ pm board\n" + session.named(board.joined(separator: "\n")) + "\n"

        let file = PMBinary.packageRoot.appendingPathComponent("Tests/PMEndToEndTests/Fixtures/\(language)/session.txt")
        if ProcessInfo.processInfo.environment["PM_UPDATE_GOLDEN"] == "1" {
            try Data(session.text.utf8).write(to: file)
            return
        }
        let expected = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        let (got, want) = (session.text.components(separatedBy: "\n"), expected.components(separatedBy: "\n"))
        let line = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, want.count)
        #expect(
            session.text == expected,
            "\(language)/session.txt differs at line \(line + 1): \(line < got.count ? got[line] : "(end)") (expected \(line < want.count ? want[line] : "(end)")); regenerate with PM_UPDATE_GOLDEN=1 if intended"
        )
    }

    /// Offline "since" is when the spell began, not the last try; and a copy
    /// with nothing to send says so instead of "0 changes wait".
    @Test func offlineSinceIsWhenItBeganAndNothingWaitingIsSaid() throws {
        let pm = PMBinary()
        let share = pm.home.file("share")
        for arguments in [["remote", "add", share], ["add", "Kept"], ["sync"]] {
            #expect(try pm.run(arguments).status == 0, "\(arguments)")
        }
        try FileManager.default.moveItem(atPath: share, toPath: share + ".unmounted")
        for (language, words) in [
            ("en_US.UTF-8", "No change waits to be sent."), ("fr_FR.UTF-8", "Aucune modification n’attend"),
            ("ko_KR.UTF-8", "보낼 변경은 없습니다"),
        ] {
            let sync = try pm.run(["sync"], ["LANG": language, "PM_NOW": "2026-11-21T10:05:00Z"])
            #expect(sync.status == 75 && sync.stderr.contains(words) && !sync.stderr.contains(" 0 "), "\(sync.stderr)")
        }
        let later = try pm.run(["sync"], ["PM_NOW": "2026-11-21T11:30:00Z"])
        #expect(later.status == 75)
        let list = try pm.run(["list"], ["PM_NOW": "2026-11-21T11:31:00Z"]).stdout
        #expect(list.contains("Offline since Nov 21, 2026, 10:05"), "\(list)")
        try FileManager.default.moveItem(atPath: share + ".unmounted", toPath: share)
        #expect(try pm.run(["sync"], ["PM_NOW": "2026-11-21T11:40:00Z"]).status == 0)
        try FileManager.default.moveItem(atPath: share, toPath: share + ".unmounted")
        _ = try pm.run(["sync"], ["PM_NOW": "2026-11-21T12:00:00Z"])
        let again = try pm.run(["list"], ["PM_NOW": "2026-11-21T12:01:00Z"]).stdout
        #expect(again.contains("Offline since Nov 21, 2026, 12:00"), "a new spell begins after a sync that worked: \(again)")
    }
}
