import Foundation
import PMTestSupport
import Testing

/// A property over random command sequences through the binary: whatever a
/// sequence of commands that exit 0 leaves on disk, pm reads back (the board,
/// its history, every person's undo state), and an independent JSON parser
/// that refuses duplicate keys and a JSON Schema validator accept the board.
@Suite struct CommandSequencePropertyTests {
    static let titles = [
        "Write report", "디자인 검토 회의", "Réunion équipe", "e\u{301}cole", "👩‍💻 deploy", String(repeating: "x", count: 200),
        "tab\there", "a\u{1B}[2Jb", "\u{200B}", " ", "quote \" and \\ backslash", "\u{202E}evil",
    ]
    static let dates = [
        "today", "tomorrow", "+3d", "+2w", "2026-12-01", "9999-12-31", "0001-01-01", "31/02/2026", "1/12", "demain", "+99999d",
        "12/1/26", "garbage",
    ]
    static let states = ["todo", "doing", "done", "EN COURS", "완료", "nowhere"]
    static let users = ["ji-woo", "camille", "Alice"]
    static let clocks = ["2026-11-21T10:00:00Z", "2026-11-21T10:00:00.001Z", "9999-12-30T12:00:00Z", "0001-01-02T12:00:00Z", ""]

    static func command(_ rng: inout SeededGenerator, ids: [String]) -> [String] {
        let id = ids.randomElement(using: &rng) ?? "0000"
        switch Int.random(in: 0..<11, using: &rng) {
        case 0, 1: return ["add", titles.randomElement(using: &rng)!, "--due", dates.randomElement(using: &rng)!]
        case 2: return ["add", titles.randomElement(using: &rng)!, "--body", "body\nline two"]
        case 3: return ["edit", id, "--title", titles.randomElement(using: &rng)!]
        case 4: return ["edit", id, "--due", dates.randomElement(using: &rng)!]
        case 5: return ["move", id, states.randomElement(using: &rng)!]
        case 6: return ["delete", id]
        case 7: return ["undo"]
        case 8: return ["redo"]
        case 9: return Bool.random(using: &rng) ? ["undo", "--skip"] : ["edit", id, "--no-due"]
        default: return Bool.random(using: &rng) ? ["remind", "--all"] : ["export", "ics"]
        }
    }

    @Test(arguments: 0..<12)
    func whatCommandsThatSucceedLeaveIsAlwaysReadBack(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed &* 7919)
        let pm = PMBinary()
        var ids: [String] = []
        var log: [String] = []
        for _ in 0..<16 {
            let arguments = Self.command(&rng, ids: ids)
            let env = [
                "PM_USER": Self.users.randomElement(using: &rng)!, "PM_NOW": Self.clocks.randomElement(using: &rng)!,
                "LANG": ["en_US.UTF-8", "fr_FR.UTF-8", "ko_KR.UTF-8"].randomElement(using: &rng)!,
            ]
            let run = try pm.run(arguments, env)
            log.append("\(env["PM_USER"]!) \(arguments) → \(run.status)")
            #expect([0, 1, 64].contains(run.status), "seed \(seed): \(log.joined(separator: "\n"))\n\(run.stderr)")
            guard run.status == 0 else { continue }
            if arguments.first == "add" { ids.append(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) }
            for user in Self.users {
                for check in [["list", "--json"], ["list"], ["history", "--limit", "1000", "--json"]] {
                    let read = try pm.run(check, ["PM_USER": user])
                    #expect(read.status == 0, "seed \(seed) after \(log.last ?? ""): \(check) → \(read.stderr)")
                }
            }
        }
        guard pm.boardBytes() != nil else { return }
        let script = """
            import json, sys
            def refuse_duplicates(pairs):
                keys = [k for k, _ in pairs]
                assert len(keys) == len(set(keys)), keys
                return dict(pairs)
            board = json.load(open(sys.argv[2], encoding="utf-8"), object_pairs_hook=refuse_duplicates)
            import jsonschema
            jsonschema.validate(board, json.load(open(sys.argv[1], encoding="utf-8")))
            print("ok", len(board["tasks"]))
            """
        let schema = PMBinary.packageRoot.appendingPathComponent("Resources/board.schema.json").path
        let (status, text) = try runPython(script, [schema, pm.boardPath], needs: ["jsonschema"])
        #expect(status == 0 && text.hasPrefix("ok"), "seed \(seed): \(text)\n\(log.joined(separator: "\n"))")
    }
}
