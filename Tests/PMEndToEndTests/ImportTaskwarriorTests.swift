import Foundation
import PMTestSupport
import Testing

/// `pm import taskwarrior` (issue 25) on what the real `task` command exports.
@Suite struct ImportTaskwarriorTests {
    /// A Taskwarrior with its own data folder; `task export` afterwards.
    struct Taskwarrior {
        let folder = TemporaryDirectory()

        func run(_ arguments: [String]) throws {
            let process = try runChild(
                try ImportTaskwarriorTests.require("task"),
                ["rc.confirmation=off", "rc.verbose=nothing", "rc.recurrence.confirmation=off"] + arguments,
                environment: [
                    "TASKRC": folder.file("taskrc"), "TASKDATA": folder.file("data"), "HOME": folder.path, "TZ": "UTC",
                    "PATH": "/usr/bin:/bin",
                ], stdout: .discard, stderr: .discard)
            #expect(process.status == 0, "task \(arguments)")
        }

        /// `task export`, written to a file.
        func export() throws -> String {
            let path = folder.file("export.json")
            let process = try runChild(
                try ImportTaskwarriorTests.require("task"), ["rc.verbose=nothing", "export"],
                environment: ["TASKRC": folder.file("taskrc"), "TASKDATA": folder.file("data"), "HOME": folder.path])
            try process.stdout.write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    static func require(_ program: String) throws -> String {
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/\(program)") { return "/usr/bin/\(program)" }
        Issue.record("\(program) is missing: install the README's prerequisites line")
        throw CancellationError()
    }

    /// The export every test here imports: pending, started, completed,
    /// deleted and recurring tasks, with project, tags, priority and a note.
    /// - Returns: the export, copied into `pm`'s folder.
    static func makeExport(for pm: PMBinary) throws -> String {
        let task = Taskwarrior()
        try "data.location=\(task.folder.file("data"))\n".write(
            toFile: task.folder.file("taskrc"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: task.folder.file("data"), withIntermediateDirectories: true)
        try task.run(["add", "Write the report", "due:2026-12-03T23:30:00Z", "project:Work", "+urgent", "priority:H"])
        try task.run(["add", "Réunion équipe", "due:2026-11-30"])
        try task.run(["add", "보고서 검토"])
        try task.run(["add", "Old idea"])
        try task.run(["add", "Finished thing"])
        try task.run(["add", "Weekly review", "due:2026-11-30", "recur:weekly"])
        try task.run(["3", "start"])
        try task.run(["1", "annotate", "Ask ana for the numbers"])
        try task.run(["description:Finished thing", "done"])
        try task.run(["description:Old idea", "delete"])
        let copy = pm.home.file("tw.json")
        try FileManager.default.copyItem(atPath: try task.export(), toPath: copy)
        return copy
    }

    func listed(_ pm: PMBinary) throws -> [[String: Any]] {
        let run = try pm.run(["list", "--json"])
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
    }

    @Test(arguments: [
        (
            "en_US.UTF-8", "Added 5 tasks from", "were already on the board", "Project: Work",
            "Undid your last change in one step: adding 5 tasks."
        ),
        (
            "fr_FR.UTF-8", "5 tâches ajoutées depuis", "étaient déjà sur le tableau", "Projet\u{00A0}: Work",
            "annulée en une fois : l’ajout de 5 tâches."
        ),
        ("ko_KR.UTF-8", "작업 5개를 한 번에 추가했습니다", "이미 보드에 있어서", "프로젝트: Work", "마지막 변경(작업 5개 추가)을 한 번에 되돌렸습니다."),
    ])
    func theTaskCommandsExportComesInOnceAndGoesWithOneUndo(
        language: String, added: String, already: String, project: String, undone: String
    ) throws {
        // Seoul: a deadline at 23:30 UTC is the next morning there.
        var pm = PMBinary(language: language)
        pm.environment["TZ"] = "Asia/Seoul"
        let file = try Self.makeExport(for: pm)
        let dry = try pm.run(["import", "taskwarrior", file, "--dry-run"])
        #expect(dry.status == 0 && dry.stdout.contains("--dry-run"), "\(dry.stderr)")
        #expect(!FileManager.default.fileExists(atPath: pm.boardPath), "a dry run writes nothing")

        let first = try pm.run(["import", "taskwarrior", file])
        #expect(first.status == 0 && first.stdout.contains(added), "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains(language.hasPrefix("ko") ? "1개는 가져오지 않았습니다" : "1"), "the deleted one is left out")
        let tasks = try listed(pm)
        var byTitle: [String: [String: Any]] = [:]
        for task in tasks { byTitle[task["title"] as? String ?? ""] = task }
        #expect(Set(byTitle.keys) == ["Write the report", "Réunion équipe", "보고서 검토", "Finished thing", "Weekly review"])
        #expect(byTitle["Write the report"]?["state"] as? String == "todo")
        #expect(byTitle["보고서 검토"]?["state"] as? String == "doing", "started")
        #expect(byTitle["Finished thing"]?["state"] as? String == "done")
        #expect(byTitle["Write the report"]?["due"] as? String == "2026-12-04", "the reader's calendar day")
        let report = try #require(byTitle["Write the report"])
        let body = report["body"] as? String ?? ""
        // The project has no field in pm: the body. The tag, the priority and the note are the task's own.
        #expect(body.contains(project) && !body.contains("urgent") && !body.contains("Ask ana"), "\(body)")
        #expect(report["labels"] as? [String] == ["urgent"] && report["priority"] as? String == "high")
        let note = try #require((report["comments"] as? [[String: Any]])?.first)
        #expect(note["text"] as? String == "Ask ana for the numbers" && note["by"] as? String == "ji-woo", "\(note)")
        #expect((note["at"] as? String)?.hasSuffix("Z") == true, "a time, as pm stores times")
        // The recurring task's instance recurs here too, from its due day (issue 48).
        let weekly = try #require(byTitle["Weekly review"]?["recur"] as? [String: Any])
        #expect(weekly["rule"] as? String == "FREQ=WEEKLY" && weekly["start"] as? String == "2026-11-30", "\(weekly)")

        // Twice: nothing added, the board's bytes unchanged.
        let before = pm.boardBytes()
        let second = try pm.run(["import", "taskwarrior", file])
        #expect(second.status == 0 && second.stdout.contains(already), "\(second.stdout)")
        #expect(pm.boardBytes() == before)
        #expect(try listed(pm).count == 5)

        // One undo takes the whole import back; redo brings it again.
        let undo = try pm.run(["undo"])
        #expect(undo.status == 0 && undo.stdout.contains(undone), "\(undo.stdout)\(undo.stderr)")
        #expect(try listed(pm).isEmpty)
        #expect(try pm.run(["redo"]).status == 0)
        #expect(try listed(pm).count == 5)
        #expect(try pm.run(["undo"]).status == 0)
        // After an undo, importing again brings them back under the same ids.
        #expect(try pm.run(["import", "taskwarrior", file]).stdout.contains(added))
        #expect(Set(try listed(pm).compactMap { $0["id"] as? String }) == Set(tasks.compactMap { $0["id"] as? String }))
    }

    @Test func standardInputAndDeletedTasksWhenAsked() throws {
        let pm = PMBinary()
        let file = try Self.makeExport(for: pm)
        let process = try runChild(
            PMBinary.path, ["import", "taskwarrior", "-", "--all"], environment: pm.environment,
            input: try Data(contentsOf: URL(fileURLWithPath: file)))
        let text = String(decoding: process.stdout, as: UTF8.self)
        #expect(process.status == 0 && text.contains("Added 6 tasks from standard input"), "\(text)")
        let titles = try listed(pm).compactMap { $0["title"] as? String }
        #expect(
            titles.contains("Old idea")
                && !titles.contains { $0 == "Weekly review" && titles.filter { $0 == "Weekly review" }.count > 1 })
    }

    @Test(arguments: [
        ("[{\"uuid\":\"0f0e0d0c-0b0a-4908-8706-050403020100\",\"description\":\"A\",\"status\":\"lost\"}]", "1:", "status"),
        ("[{\"uuid\":\"not-a-uuid\",\"description\":\"A\",\"status\":\"pending\"}]", "1:", "uuid"),
        (
            "[{\"uuid\":\"0f0e0d0c-0b0a-4908-8706-050403020100\",\"description\":\"A\",\"due\":\"2026-13-45\"}]", "1:",
            "2026-13-45"
        ),
        ("[{\"uuid\":\"0f0e0d0c-0b0a-4908-8706-050403020100\",\"description\":\"A\\u001b[2J\"}]", "1:", "(ESC)"),
        ("[{\"uuid\":\"0f0e0d0c-0b0a-4908-8706-050403020100\",\"description\":\"A\u{1B}[2J\"}]", "1:65", "well-formed"),
        (
            "[{\"uuid\":\"0f0e0d0c-0b0a-4908-8706-050403020100\",\"description\":\"A\"},\n{\"uuid\":\"0f0e0d0c-0b0a-4908-8706-050403020100\",\"description\":\"B\"}]",
            "2:1", "twice"
        ),
        ("[{\"uuid\":\"0f0e0d0c-0b0a-4908-8706-050403020100\",\"description\":\"A\"", "1:", "ends too early"),
        ("{\"cards\":[],\"lists\":[]}", "1:1", "Taskwarrior"),
    ])
    func damagedExportsAreRefusedWithTheirPlaceAndNothingIsWritten(text: String, place: String, why: String) throws {
        let pm = PMBinary()
        try pm.run(["add", "Already here"])
        let before = pm.boardBytes()
        let file = pm.home.file("bad.json")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try pm.run(["import", "taskwarrior", file])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("bad.json:" + place) && run.stderr.contains(why), "\(run.stderr)")
        #expect(run.stderr.contains("Nothing was added"))
        #expect(pm.boardBytes() == before)
        #expect(try pm.run(["undo"]).stdout.contains("Already here"), "the undo history is as it was")
    }

    /// A monthly task with an end (`recur:monthly until:`) imports as a
    /// series that ends there: done on its last month, it makes no next one.
    /// (Far-off dates: `task` makes an instance for every period up to its
    /// own, real, today — one each here, whatever day the suite runs on.)
    @Test func aRecurringTaskKeepsItsPeriodAndItsEnd() throws {
        let pm = PMBinary()
        let task = Taskwarrior()
        try "data.location=\(task.folder.file("data"))\n".write(
            toFile: task.folder.file("taskrc"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: task.folder.file("data"), withIntermediateDirectories: true)
        try task.run(["add", "Pay rent", "due:2099-12-01", "recur:monthly", "until:2100-01-15"])
        try task.run(["add", "Standup", "due:2099-11-30", "recur:weekdays"])
        try task.run(["list"])  // makes the instances
        let file = pm.home.file("tw.json")
        try FileManager.default.copyItem(atPath: try task.export(), toPath: file)
        #expect(try pm.run(["import", "taskwarrior", file]).status == 0)
        let tasks = try listed(pm)
        let rent = try #require(tasks.first { $0["title"] as? String == "Pay rent" })
        let recur = try #require(rent["recur"] as? [String: Any])
        #expect(recur["rule"] as? String == "FREQ=MONTHLY" && recur["until"] as? String == "2100-01-15", "\(recur)")
        let standup = try #require(tasks.first { $0["title"] as? String == "Standup" })
        #expect((standup["recur"] as? [String: Any])?["rule"] as? String == "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")
        // December's done: January's comes. January's done: the series has ended.
        let id = try #require(rent["id"] as? String)
        #expect(try pm.run(["done", id]).stdout.contains("January 1, 2100"))
        let next = try #require(try listed(pm).first { $0["title"] as? String == "Pay rent" && $0["state"] as? String == "todo" })
        let last = try pm.run(["done", try #require(next["id"] as? String)])
        #expect(last.status == 0 && !last.stdout.contains("Next:"), "\(last.stdout)")
        #expect(try listed(pm).filter { $0["title"] as? String == "Pay rent" }.count == 2)
        // Shown with its end.
        #expect(try pm.run(["show", id]).stdout.contains("every month until Jan 15, 2100"))
    }

    /// Taskwarrior's `due` keeps its time of day (issue 48); one at
    /// midnight, what `task` stores for a day given alone, is a whole day.
    @Test func aDueTimeKeepsItsTime() throws {
        var pm = PMBinary()
        pm.environment["TZ"] = "Europe/Paris"
        let task = Taskwarrior()
        try "data.location=\(task.folder.file("data"))\n".write(
            toFile: task.folder.file("taskrc"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: task.folder.file("data"), withIntermediateDirectories: true)
        try task.run(["add", "Meet", "due:2099-12-01T14:30"])
        try task.run(["add", "Whole day", "due:2099-12-01T23:00"])
        let file = pm.home.file("tw.json")
        try FileManager.default.copyItem(atPath: try task.export(), toPath: file)
        #expect(try pm.run(["import", "taskwarrior", file]).status == 0)
        let tasks = try listed(pm)
        // `task` ran in UTC: 14:30 there is 15:30 in Paris; 23:00 there is Paris's midnight.
        let meet = try #require(tasks.first { $0["title"] as? String == "Meet" })
        let time = meet["dueTime"] as? [String: Any]
        #expect(meet["due"] as? String == "2099-12-01" && time?["time"] as? String == "15:30", "\(meet)")
        #expect(time?["zone"] as? String == "Europe/Paris" && time?["at"] as? String == "2099-12-01T14:30:00.000Z")
        let whole = try #require(tasks.first { $0["title"] as? String == "Whole day" })
        #expect(whole["due"] as? String == "2099-12-02" && whole["dueTime"] is NSNull, "\(whole)")
    }
}
