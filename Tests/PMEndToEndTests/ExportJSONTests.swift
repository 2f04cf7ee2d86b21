import Foundation
import Testing

/// `pm export json` (issue 25): the whole board for scripts, valid against
/// Resources/export.schema.json, never translated, filtered as list is.
@Suite struct ExportJSONTests {
    @Test func theWholeBoardIsExportedAsItsSchemaSays() throws {
        let pm = PMBinary(language: "ko_KR.UTF-8")
        try pm.run(["add", "회의 준비", "--due", "2026-11-20", "--to", "ji-woo"], ["PM_NOW": "2026-11-21T10:00:00Z"])
        let report = try pm.run(
            ["add", "Rapport « final »", "--body", "ligne 1\nligne 2", "--label", "rapport,q4", "--priority", "높음"],
            ["PM_NOW": "2026-11-21T10:00:01Z"]
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for change in [["check", report, "add", "Relire"], ["check", report, "done", "1"], ["comment", report, "Vu\tok"]] {
            #expect(try pm.run(change, ["PM_NOW": "2026-11-21T10:00:02Z"]).status == 0, "\(change)")
        }
        let export = try pm.run(["export", "json"])
        #expect(export.status == 0 && export.stderr.isEmpty, "\(export.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "pm-board-export" && object["formatVersion"] as? Int == 1)
        let tasks = try #require(object["tasks"] as? [[String: Any]])
        #expect(tasks.map { $0["title"] as? String } == ["회의 준비", "Rapport « final »"], "creation order")
        #expect(tasks[0]["overdue"] as? Bool == true && tasks[0]["assignees"] as? [String] == ["ji-woo"])
        // A card's own parts (DESIGN.md §17), as keys, never words: every task carries them, empty or null.
        #expect(tasks[0]["labels"] as? [String] == [] && tasks[0]["priority"] is NSNull)
        #expect(tasks[0]["checklist"] as? [Any] != nil && tasks[0]["comments"] as? [Any] != nil)
        #expect(tasks[1]["labels"] as? [String] == ["q4", "rapport"] && tasks[1]["priority"] as? String == "high")
        let item = try #require((tasks[1]["checklist"] as? [[String: Any]])?.first)
        #expect(item["text"] as? String == "Relire" && item["done"] as? Bool == true && item["position"] == nil)
        let comment = try #require((tasks[1]["comments"] as? [[String: Any]])?.first)
        #expect(comment["by"] as? String == "ji-woo" && comment["text"] as? String == "Vu\tok")
        #expect(comment["at"] as? String == "2026-11-21T10:00:02.000Z")
        #expect(try pm.run(["export", "json"], ["LANG": "fr_FR.UTF-8"]).stdout == export.stdout, "never translated")
        let mine = try pm.run(["export", "json", "--mine"]).stdout
        #expect(mine.contains("회의 준비") && !mine.contains("Rapport"))
        // Against the schema, the task's definition taken from task.schema.json.
        let file = pm.home.file("export.json")
        try Data(export.stdout.utf8).write(to: URL(fileURLWithPath: file))
        let resources = PMBinary.packageRoot.appendingPathComponent("Resources").path
        let script = """
            import json, sys, jsonschema
            resources, path = sys.argv[1], sys.argv[2]
            schema = json.load(open(resources + "/export.schema.json"))
            task = json.load(open(resources + "/task.schema.json"))["$defs"]["task"]
            schema["properties"]["tasks"]["items"] = task
            jsonschema.validate(json.load(open(path)), schema)
            bad = json.load(open(path)); bad["formatVersion"] = 2
            try:
                jsonschema.validate(bad, schema); print("accepted a bad version")
            except jsonschema.ValidationError:
                print("ok")
            """
        let (status, text) = try runPython(script, [resources, file], needs: ["jsonschema"])
        #expect(status == 0 && text.contains("ok") && !text.contains("accepted"), "\(text)")
        // To a file: said in the reader's language; the file holds the same.
        let written = try pm.run(["export", "json", "--output", pm.home.file("out.json")])
        #expect(written.stdout.contains("작업 2개를 썼습니다"), "\(written.stdout)")
        let onDisk = try String(contentsOfFile: pm.home.file("out.json"), encoding: .utf8)
        #expect(
            onDisk.replacingOccurrences(of: "\"exportedAt\": \"[^\"]*\"", with: "", options: .regularExpression)
                == export.stdout.replacingOccurrences(of: "\"exportedAt\": \"[^\"]*\"", with: "", options: .regularExpression))
    }
}
