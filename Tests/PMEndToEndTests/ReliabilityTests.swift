import Foundation
import PMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ReliabilityTests {
    func titles(_ pm: PMBinary) throws -> [String] {
        let run = try pm.run(["list", "--json"])
        let array = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], "\(run.stderr)")
        return array.compactMap { $0["title"] as? String }
    }

    /// Eight people × 25 changes of every kind at once, with `flock` working.
    @Test func eightConcurrentWritersLoseNothing() throws {
        try MixedWriters.check(PMBinary(), extra: ["PM_LOCK_TIMEOUT": "60"])
    }

    @Test func killingWritersAtRandomMomentsNeverDamagesTheBoard() throws {
        let pm = PMBinary()
        for n in 0..<3 { try pm.run(["add", "seed \(n)", "--body", String(repeating: "b", count: 900)]) }
        var committed = Set(try titles(pm))
        var killedBeforeCommitting = 0
        for round in 0..<40 {
            let process = try ChildProcess(
                PMBinary.path, ["add", "kill \(round)", "--body", String(repeating: "k", count: 500)],
                environment: pm.environment, stdout: .discard, stderr: .discard)
            usleep(useconds_t.random(in: 0...12_000))
            process.send(SIGKILL)
            process.wait()
            let now = try titles(pm)
            #expect(committed.isSubset(of: Set(now)), "round \(round): a committed task was lost")
            if !now.contains("kill \(round)") { killedBeforeCommitting += 1 }
            committed = Set(now)
        }
        #expect(killedBeforeCommitting > 0, "no kill landed before a commit: the test proved nothing")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: pm.home.path).filter { $0.contains(".tmp-") }
        try pm.run(["add", "after the storm"])
        let cleaned = try FileManager.default.contentsOfDirectory(atPath: pm.home.path).filter { $0.contains(".tmp-") }
        #expect(cleaned.isEmpty, "temp files left after a clean save: \(cleaned) (before: \(leftovers))")
        #expect(try titles(pm).contains("after the storm"))
    }

    static let damaged: [(name: String, content: [UInt8], message: String, status: Int32)] = [
        ("empty", [], "the file is empty", 65),
        (
            "truncated",
            Array("{\n  \"history\": [],\n  \"id\": \"00c0ffee-0000-4000-8000-00000000b0a4\",\n  \"tasks\": [\n    {".utf8),
            "ends too early", 65
        ),
        ("conflict", Array("<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> other\n".utf8), "git conflict markers", 65),
        ("garbage", Array("tasks: - buy milk\n".utf8), "line 1, column 1", 65),
        ("utf8", Array("{\"id\": \"".utf8) + [0xC3, 0x28] + Array("\"}".utf8), "not valid UTF-8 at byte 8", 65),
        (
            "newer",
            Array(
                "{\"history\": [], \"id\": \"00c0ffee-0000-4000-8000-00000000b0a4\", \"schemaVersion\": 99, \"tasks\": [], \"future\": 1}\n"
                    .utf8), "written by a newer pm (format 99", 65
        ),
        ("missingField", Array("{\"schemaVersion\": 1, \"tasks\": []}".utf8), "'id'", 65),
    ]

    @Test(arguments: 0..<7)
    func damagedBoardsAreRefusedAndNeverWritten(index: Int) throws {
        let (name, content, message, status) = Self.damaged[index]
        let pm = PMBinary()
        try Data(content).write(to: URL(fileURLWithPath: pm.boardPath))
        for arguments in [
            ["add", "new task"], ["move", "3f2a", "done"], ["edit", "3f2a", "--title", "x"], ["delete", "3f2a"],
        ] {
            let run = try pm.run(arguments)
            #expect(run.status == status, "\(name) \(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains(message), "\(name): \(run.stderr)")
            #expect(pm.boardBytes() == Data(content), "\(name): the file changed")
        }
        if name != "newer" {
            let list = try pm.run(["list"])
            #expect(list.status == 65)
            #expect(list.stderr.contains("pm has not changed the file"))
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: pm.home.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test func damagedBoardMessagesAreLocalized() throws {
        let pm = PMBinary(language: "fr_FR.UTF-8")
        try Data().write(to: URL(fileURLWithPath: pm.boardPath))
        let run = try pm.run(["list"])
        #expect(run.stderr.contains("le fichier est vide"))
        #expect(run.stderr.hasPrefix("pm : erreur : impossible de lire le tableau"))
    }

    @Test func aBoardPathThatIsADirectoryOrFIFOIsRejected() throws {
        let pm = PMBinary()
        try FileManager.default.createDirectory(atPath: pm.boardPath, withIntermediateDirectories: true)
        let directory = try pm.run(["add", "x"])
        #expect(directory.status == 74 && directory.stderr.contains("not a regular file"))
        let fifo = PMBinary()
        #expect(mkfifo(fifo.boardPath, 0o644) == 0)
        let run = try fifo.run(["list"])
        #expect(run.status == 74 && run.stderr.contains("not a regular file"))
        #expect(try fifo.run(["add", "x"]).status == 74)
    }

    @Test func aLockedBoardEndsInExit75AndNamesTheHolder() throws {
        // The holder is this test process: pm must be another.
        var pm = PMBinary()
        pm.inOwnProcess = true
        try pm.run(["add", "first"])
        let before = pm.boardBytes()
        // This test process holds the lock; the file names a pm that is long gone.
        let holder = open(pm.boardPath + ".lock", O_RDWR | O_CREAT, 0o644)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX) == 0)
        _ = ftruncate(holder, 0)
        _ = "777\n".withCString { pwrite(holder, $0, 4, 0) }
        let run = try pm.run(["add", "blocked"], ["PM_LOCK_TIMEOUT": "0.2"])
        #expect(run.status == 75)
        #expect(run.stderr.contains("held by another program (pid \(getpid()))"), "\(run.stderr)")
        #expect(!run.stderr.contains("(pid 777)"), "a stale pid is never named as the holder")
        #expect(pm.boardBytes() == before)
        // Readers never wait for the lock.
        #expect(try pm.run(["list"]).status == 0)
    }

    @Test func unknownFieldsSurviveAChangeByThisPm() throws {
        let pm = PMBinary()
        try pm.useSampleBoard()
        var text = String(decoding: pm.boardBytes() ?? Data(), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"revision\": 6,", with: "\"revision\": 6,\n  \"syncPeers\": [\"laptop\"],")
        text = text.replacingOccurrences(
            of: "\"title\": \"Release 1.0\",", with: "\"title\": \"Release 1.0\",\n      \"tags\": [\"v1\"],")
        try Data(text.utf8).write(to: URL(fileURLWithPath: pm.boardPath))
        #expect(try pm.run(["move", "a1b2", "todo"]).status == 0)
        let after = String(decoding: pm.boardBytes() ?? Data(), as: UTF8.self)
        #expect(after.contains("\"syncPeers\": [\n    \"laptop\"\n  ]"))
        #expect(after.contains("\"tags\": [\n        \"v1\"\n      ]"))
        #expect(after.contains("\"schemaVersion\": 2"), "converted to the event log on this first change")
    }

    /// Root ignores permissions, so this runs pm as `nobody` through setpriv.
    @Test func anUnwritableDirectoryLeavesTheBoardIntact() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            Issue.record("setpriv is missing: install util-linux")
            return
        }
        let pm = PMBinary.withoutFakedClock()
        try pm.run(["add", "kept"])
        let before = pm.boardBytes()
        // World-readable but not writable for nobody.
        chmod(pm.home.path, 0o755)
        chmod(pm.boardPath, 0o644)
        chmod(pm.boardPath + ".lock", 0o666)
        let process = try runChild(
            "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", PMBinary.path, "add", "denied"],
            environment: pm.environment, stdout: .discard)
        let stderr = String(decoding: process.stderr, as: UTF8.self)
        if getuid() == 0 || process.status != 0 {
            #expect(process.status == 74, "\(stderr)")
            #expect(stderr.contains("permission denied"), "\(stderr)")
        }
        #expect(pm.boardBytes() == before)
        // Reads still work for that user.
        let reader = try runChild(
            "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", PMBinary.path, "list", "--json"],
            environment: pm.environment, stdout: .discard, stderr: .discard)
        #expect(reader.status == 0)
    }

    @Test func theBinaryCopiedAloneRunsInFrenchAndKorean() throws {
        let pm = PMBinary()
        try pm.useSampleBoard()
        let alone = pm.home.file("elsewhere")
        try FileManager.default.createDirectory(atPath: alone, withIntermediateDirectories: true)
        try PMBinary.copy(to: alone + "/pm")
        let french = try pm.run(["list"], ["LANG": "fr_FR.UTF-8"], binary: alone + "/pm")
        #expect(french.stdout.contains("À FAIRE (3)") && french.stdout.contains("20 nov. (en retard)"))
        let korean = try pm.run(["list"], ["LANG": "ko_KR.UTF-8"], binary: alone + "/pm")
        #expect(korean.stdout.contains("할 일 (3)") && korean.stdout.contains("11월 20일 마감 지남"))
    }
}

@Suite struct SchemaTests {
    /// The board pm writes, and the shipped sample, validate against Resources/board.schema.json
    /// (checked by Python's jsonschema, an independent implementation).
    @Test func writtenBoardsMatchTheSchema() throws {
        let pm = PMBinary()
        try pm.useSampleBoard()
        try pm.run(["add", "new", "--due", "2026-12-24", "--body", "b"])
        try pm.run(["move", "3f2a", "done"])
        try pm.run(["edit", "8c1d", "--no-due", "--title", "renamed", "--priority", "high"])
        // A card's own parts, a removed item and a withdrawn comment among them.
        for change in [
            ["label", "8c1d", "ux", "été"], ["check", "8c1d", "add", "Step"], ["check", "8c1d", "done", "1"],
            ["check", "8c1d", "add", "Gone"], ["check", "8c1d", "remove", "2"], ["comment", "8c1d", "Looks good"],
            ["comment", "8c1d", "Withdrawn"], ["comment", "8c1d", "--withdraw", "2"],
        ] {
            #expect(try pm.run(change).status == 0, "\(change)")
        }
        try pm.run(["rm", "a1b2"])
        let schema = PMBinary.packageRoot.appendingPathComponent("Resources/board.schema.json").path
        let sample = PMBinary.packageRoot.appendingPathComponent("Resources/sample-board.json").path
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            for path in sys.argv[2:]:
                jsonschema.validate(json.load(open(path)), schema)
            # Every line of the log, against the event schema (its $refs resolve to the board schema).
            events = json.load(open(sys.argv[1].replace("board.schema", "event.schema")))
            store = {schema["$id"]: schema, events["$id"]: events}
            resolver = jsonschema.RefResolver.from_schema(events, store=store)
            lines = open(sys.argv[2].replace(".json", ".events.jsonl"), encoding="utf-8").read().splitlines()
            assert len(lines) >= 6, len(lines)
            for line in lines:
                jsonschema.validate(json.loads(line), events, resolver=resolver)
            bad = json.loads(lines[-1]); bad["hlc"] = [-1, 0]
            try:
                jsonschema.validate(bad, events, resolver=resolver)
                sys.exit("event schema accepted a negative clock")
            except jsonschema.ValidationError:
                pass
            bad = json.load(open(sys.argv[2])); bad["tasks"][0]["state"] = "DOING"
            try:
                jsonschema.validate(bad, schema)
                sys.exit("schema accepted a translated state")
            except jsonschema.ValidationError:
                pass
            print("ok")
            """
        let (status, text) = try runPython(script, [schema, pm.boardPath, sample], needs: ["jsonschema"])
        #expect(status == 0, "\(text)")
        #expect(text.contains("ok"))
    }

    /// The commands that take `--json`, from ArgumentParser's definitions.
    func commandsWithJSON(_ pm: PMBinary) throws -> [String] {
        let dump = try pm.run(["--experimental-dump-help"]).stdout
        guard let json = try JSONSerialization.jsonObject(with: Data(dump.utf8)) as? [String: Any],
            let root = json["command"] as? [String: Any]
        else { return [] }
        var found: [String] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            let arguments = command["arguments"] as? [[String: Any]] ?? []
            let names = arguments.flatMap { ($0["names"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String } }
            if names.contains("json") { found.append(path.joined(separator: " ")) }
            for child in command["subcommands"] as? [[String: Any]] ?? [] {
                walk(child, path + [child["commandName"] as? String ?? ""])
            }
        }
        walk(root, [])
        return found
    }

    /// Every `--json` output validates against its schema in Resources/,
    /// with a conflict and a restored task on the board.
    @Test func jsonOutputsMatchTheirSchemas() throws {
        let pm = PMBinary()
        let a = pm.home.file("a/board.json")
        let id = try pm.run(["add", "Shared", "--due", "2026-11-01", "--board", a]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let log = { (board: String) in String(board.dropLast(5)) + ".events.jsonl" }
        try pm.run(["merge", log(a)])
        try pm.run(["edit", id, "--title", "From A", "--board", a], ["PM_NOW": "2026-11-21T10:00:01Z"])
        try pm.run(["edit", id, "--title", "From B"], ["PM_NOW": "2026-11-21T10:00:02Z"])
        try pm.run(["merge", log(a)])
        let other = try pm.run(["add", "Other", "--due", "2026-11-21"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try pm.run(["add", "Theirs", "--to", "ji-woo"], ["PM_USER": "lee"])  // news for ji-woo
        try pm.run(["view", "save", "soon", "--mine", "--label", "ux", "--due-before", "+7d", "--priority", "high,none"])
        // Every command that takes --json (HelpTests reads the same tree), in an order that leaves each one something to do.
        let outputs: [(String, [String])] = [
            ("task", ["list", "--json"]), ("task", ["show", id, "--json"]), ("task", ["add", "x", "--json"]),
            ("task", ["edit", other, "--body", "b", "--json"]), ("task", ["move", other, "doing", "--json"]),
            ("task", ["start", other, "--json"]), ("task", ["assign", other, "ana", "ji-woo", "--json"]),
            ("task", ["unassign", other, "ana", "--json"]), ("task", ["take", other, "--json"]),
            ("task", ["label", other, "ux", "été", "--json"]), ("task", ["unlabel", other, "ux", "--json"]),
            ("task", ["check", other, "add", "Step", "--json"]), ("task", ["comment", other, "Looks good", "--json"]),
            ("task", ["recur", other, "every monday", "--json"]), ("task", ["recur", other, "--stop", "--json"]),
            ("task", ["list", "--json", "--to", "ji-woo"]), ("task", ["remind", "--json"]), ("task", ["done", other, "--json"]),
            ("history", ["history", "--json"]), ("history", ["history", "--task", id, "--json"]),
            ("history", ["news", "--json"]),
            ("history", ["undo", "--json"]), ("history", ["redo", "--json"]), ("task", ["delete", other, "--json"]),
            ("status", ["status", "--json"]), ("views", ["view", "list", "--json"]),
            ("l10n-status", ["l10n", "status", "--json"]),
        ]
        // A command's path (`view list`): its words before the first option or argument.
        let paths = Set(try commandsWithJSON(pm))
        let checked = Set(
            outputs.map { $0.1.count > 1 && paths.contains($0.1[0] + " " + $0.1[1]) ? $0.1[0] + " " + $0.1[1] : $0.1[0] })
        #expect(checked == paths, "a command with --json has no schema check here")
        var files: [String] = []
        for (n, (schema, arguments)) in outputs.enumerated() {
            let run = try pm.run(arguments)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            let file = pm.home.file("out\(n).json")
            try Data(run.stdout.utf8).write(to: URL(fileURLWithPath: file))
            files += [PMBinary.packageRoot.appendingPathComponent("Resources/\(schema).schema.json").path, file]
        }
        #expect(try pm.run(["show", id, "--json"]).stdout.contains("\"conflicts\""), "the board has a conflict to validate")
        let script = """
            import json, sys, jsonschema
            args = sys.argv[1:]
            for schema, path in zip(args[::2], args[1::2]):
                jsonschema.validate(json.load(open(path)), json.load(open(schema)))
            print("ok")
            """
        let (status, text) = try runPython(script, files, needs: ["jsonschema"])
        #expect(status == 0 && text.contains("ok"), "\(text)")
    }
}
