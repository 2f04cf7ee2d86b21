import Foundation
import PMTestSupport
import Testing

/// `pm list` reads the board through its index's summaries (no task read
/// from the file): what it prints is what a whole read of the file prints,
/// in every shipped language, for cards that carry labels, a priority, a
/// checklist and comments, with changes in the log past the checkpoint.
@Suite struct ListThroughIndexTests {
    @Test(arguments: ["en_US.UTF-8", "fr_FR.UTF-8", "ko_KR.UTF-8"])
    func aListThroughTheIndexIsTheWholeRead(language: String) throws {
        let pm = PMBinary(language: language)
        for (title, due) in [("Report", "2026-11-20"), ("Été", "2026-12-24"), ("회의", ""), ("Plain", "2026-11-22")] {
            try pm.run(["add", title] + (due.isEmpty ? [] : ["--due", due]))
        }
        let listed = try JSONSerialization.jsonObject(with: Data(try pm.run(["list", "--json"]).stdout.utf8)) as? [[String: Any]]
        let byTitle = Dictionary(
            uniqueKeysWithValues: (listed ?? []).compactMap { task in
                (task["title"] as? String).flatMap { title in (task["id"] as? String).map { (title, $0) } }
            })
        let ids = try ["Report", "Été", "회의", "Plain"].map { try #require(byTitle[$0]) }
        for change in [
            ["label", ids[0], "bug", "été"], ["edit", ids[0], "--priority", "high"], ["check", ids[0], "add", "Draft"],
            ["check", ids[0], "add", "Send"], ["check", ids[0], "done", "1"], ["comment", ids[0], "Looks good"],
            ["assign", ids[1], "지우"], ["label", ids[2], "검토"], ["check", ids[2], "add", "Book"],
        ] {
            let run = try pm.run(change)
            #expect(run.status == 0, "\(change): \(run.stderr)")
        }
        try pm.run(["checkpoint"])
        // Past the checkpoint: a move, a tick and a label, in the log only.
        try pm.run(["move", ids[1], "doing"])
        try pm.run(["check", ids[2], "done", "1"])
        try pm.run(["label", ids[3], "later"])
        let index = pm.boardPath + ".index"
        #expect(FileManager.default.fileExists(atPath: index))
        for options in [[], ["--sort", "priority"], ["--label", "bug"], ["--grep", "rep"], ["--state", "todo"]] {
            let through = try pm.run(["list"] + options)
            #expect(FileManager.default.fileExists(atPath: index), "a list leaves the index as it was")
            let saved = try Data(contentsOf: URL(fileURLWithPath: index))
            try FileManager.default.removeItem(atPath: index)
            let whole = try pm.run(["list"] + options)
            try saved.write(to: URL(fileURLWithPath: index))
            #expect(through.status == 0 && through.stdout == whole.stdout, "\(options)\n\(through.stdout)\n\(whole.stdout)")
            #expect(through.stderr == whole.stderr)
        }
        let shown = try pm.run(["list"]).stdout
        #expect(shown.contains("✓ 1/2 #bug #été") && shown.contains("✓ 1/1 #검토") && shown.contains("#later"), "\(shown)")
        // No task is read from the file: one damaged where it lies (size
        // and time kept) is not seen by the list; `pm show` reads it, and refuses.
        var file = Array(try Data(contentsOf: URL(fileURLWithPath: pm.boardPath)))
        let title = Array("\"title\": \"Report\"".utf8)
        let at = try #require(file.indices.first { file[$0...].starts(with: title) })
        file[at] = UInt8(ascii: "{")
        try overwriteKeepingTime(pm.boardPath, file)
        #expect(try pm.run(["list"]).stdout == shown)
        #expect(try pm.run(["show", ids[0]]).status == 65)
    }
}
