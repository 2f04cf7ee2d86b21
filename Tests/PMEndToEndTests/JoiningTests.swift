import Foundation
import PMTestSupport
import Testing

/// Joining a team (DESIGN.md §9): a person who already keeps a board of
/// their own joins the team's in two commands, told how in their language
/// by the message that refuses a mismatch; their tasks stay theirs and are
/// never published unasked.
@Suite struct JoiningTests {
    typealias Copy = SyncEndToEndTests.Copy

    /// A team board of five tasks on a bare repository, and a person with
    /// twenty tasks of their own (moved, edited, finished, with deadlines)
    /// that never synced.
    static func setUp(language: String) throws -> (pm: PMBinary, bare: String, lead: Copy, me: Copy) {
        var pm = PMBinary(language: language)
        pm.environment["PM_NOW"] = nil
        let bare = pm.home.file("team.git")
        _ = try runGit(["init", "-q", "--bare", bare])
        let lead = Copy(pm: pm, board: pm.home.file("lead/board.json"), user: "camille")
        for n in 1...5 { try lead.run(["add", "Team task \(n)"]) }
        #expect(try lead.run(["remote", "add", bare]).status == 0)
        #expect(try lead.run(["sync"]).status == 0)
        let me = Copy(pm: pm, board: pm.home.file("me/board.json"), user: "지우")
        for n in 1...20 {
            let id = try me.id(["add", "My task \(n)", "--due", "+\(n)d"])
            if n % 3 == 0 { try me.run(["move", id, "doing"]) }
            if n % 5 == 0 { try me.run(["edit", id, "--body", "Notes for \(n)"]) }
            if n % 7 == 0 { try me.run(["move", id, "done"]) }
        }
        return (pm, bare, lead, me)
    }

    /// Each task as id, title, state, due and body: what "still theirs" means.
    static func tasks(_ copy: Copy) throws -> [String: String] {
        let list = try copy.run(["list", "--json"])
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        var found: [String: String] = [:]
        for task in tasks {
            let id = try #require(task["id"] as? String)
            found[id] = ["title", "state", "due", "body"].map { "\(task[$0] ?? "")" }.joined(separator: "|")
        }
        return found
    }

    @Test(arguments: ["en_US.UTF-8", "fr_FR.UTF-8", "ko_KR.UTF-8"])
    func aPersonWithABoardOfTheirOwnJoinsInTwoCommands(language: String) throws {
        let (_, bare, lead, me) = try Self.setUp(language: language)
        let mine = try Self.tasks(me)
        #expect(mine.count == 20)
        // First command.
        let add = try me.run(["remote", "add", bare])
        #expect(add.status == 0, "\(add.stderr)")
        // A plain sync refuses, names the remote, says why and gives both ways on, in the reader's language.
        let before = me.bytes
        let refused = try me.run(["sync"])
        #expect(refused.status == 65)
        let why = [
            "en_US.UTF-8": "holds another board", "fr_FR.UTF-8": "contient un autre tableau", "ko_KR.UTF-8": "다른 보드가 있습니다",
        ]
        #expect(refused.stderr.contains(bare) && refused.stderr.contains(why[language]!), "\(refused.stderr)")
        #expect(refused.stderr.contains("pm sync --join") && refused.stderr.contains("pm remote add \(bare) --board "))
        #expect(refused.stderr.contains("20"), "the count of the person's tasks")
        #expect(!refused.stderr.contains(me.board + " "), "the person's own board is not called another board's")
        #expect(me.bytes == before, "nothing changed")
        // Second command.
        let join = try me.run(["sync", "--join"])
        #expect(join.status == 0, "\(join.stderr)")
        #expect(join.stdout.contains("20"), "\(join.stdout)")
        let after = try Self.tasks(me)
        #expect(after.count == 25)
        for (id, task) in mine { #expect(after[id] == task, "\(task) is still the person's, unchanged") }
        // The team sees them; everyone's copy is the same; the person's undo still works.
        #expect(try lead.run(["sync"]).status == 0)
        #expect(try Self.tasks(lead) == after)
        #expect(try me.run(["undo"]).status == 0, "the undo history came along")
        #expect(try me.run(["sync"]).status == 0)
        #expect(try lead.run(["sync"]).status == 0)
        #expect(me.folded == lead.folded)
    }

    /// `pm remote add` to a folder or a git repository holding another
    /// board says so at once, with the two ways on (issue 44, item 15): the
    /// refusal came only at the next sync.
    @Test(arguments: [
        ("en_US.UTF-8", "holds another board", false), ("fr_FR.UTF-8", "contient un autre tableau", false),
        ("ko_KR.UTF-8", "다른 보드가 있습니다", false), ("en_US.UTF-8", "holds another board", true),
        ("fr_FR.UTF-8", "contient un autre tableau", true), ("ko_KR.UTF-8", "다른 보드가 있습니다", true),
    ])
    func addingARemoteThatHoldsAnotherBoardSaysSoAtOnce(language: String, words: String, git: Bool) throws {
        var pm = PMBinary(language: language)
        pm.environment["PM_NOW"] = nil
        let share = pm.home.file(git ? "team.git" : "share")
        if git { _ = try runGit(["init", "-q", "--bare", share]) }
        let lead = Copy(pm: pm, board: pm.home.file("lead/board.json"), user: "camille")
        try lead.run(["add", "Team task"])
        #expect(try lead.run(["remote", "add", share]).status == 0)
        #expect(try lead.run(["sync"]).status == 0)
        let me = Copy(pm: pm, board: pm.home.file("me/board.json"), user: "지우")
        try me.run(["add", "Mine"])
        let add = try me.run(["remote", "add", share])
        #expect(add.status == 0 && add.stdout.contains(words) && add.stdout.contains("pm sync --join"), "\(add.stdout)")
        // A newcomer with nothing of their own, or the lead itself, is told nothing of the sort.
        let newcomer = Copy(pm: pm, board: pm.home.file("new/board.json"), user: "new")
        #expect(!(try newcomer.run(["remote", "add", share]).stdout.contains(words)))
        #expect(!(try lead.run(["remote", "add", share]).stdout.contains(words)))
        #expect(try me.run(["sync", "--join"]).status == 0)
    }

    /// After joining, the log records the board joined: a board file lost
    /// later is made again as the team's board, and sync goes on (before,
    /// the log still named the board left: exit 65 until `--join` again).
    @Test func aBoardFileLostAfterJoiningIsMadeAgainAsTheTeamsBoard() throws {
        let (_, bare, lead, me) = try Self.setUp(language: "en_US.UTF-8")
        #expect(try me.run(["remote", "add", bare]).status == 0)
        #expect(try me.run(["sync", "--join"]).status == 0)
        let joined = try Self.tasks(me)
        try FileManager.default.removeItem(atPath: me.board)
        #expect(try Self.tasks(me) == joined, "the board made again from its log")
        try lead.run(["add", "After the loss"])
        #expect(try lead.run(["sync"]).status == 0)
        let sync = try me.run(["sync"])
        #expect(sync.status == 0 && sync.stdout.contains("received: 1"), "\(sync.stdout)\(sync.stderr)")
        try me.run(["add", "Mine after the loss"])
        #expect(try me.run(["sync"]).status == 0)
        #expect(try lead.run(["sync"]).status == 0)
        #expect(try Self.tasks(me) == Self.tasks(lead))
        // And again after a checkpoint and a second loss.
        #expect(try me.run(["checkpoint"]).status == 0)
        try FileManager.default.removeItem(atPath: me.board)
        #expect(try me.run(["sync"]).status == 0)
        #expect(try Self.tasks(me) == Self.tasks(lead))
        // The log holds the same lines as the lead's: the board files are the same bytes.
        #expect(try lead.run(["sync"]).status == 0)
        #expect(me.folded == lead.folded)
    }

    /// The other way on: the team's board in a file of its own beside the
    /// person's, in two commands; nothing of the person's is published.
    @Test func theTeamsBoardBesideOnesOwnInTwoCommands() throws {
        let (pm, bare, lead, me) = try Self.setUp(language: "en_US.UTF-8")
        let mine = try Self.tasks(me)
        let before = me.bytes
        let beside = Copy(pm: pm, board: pm.home.file("me/team/board.json"), user: "지우")
        #expect(try beside.run(["remote", "add", bare]).status == 0)
        let sync = try beside.run(["sync"])
        #expect(sync.status == 0 && sync.stdout.contains("received: 5"), "\(sync.stdout)\(sync.stderr)")
        #expect(try Self.tasks(beside) == Self.tasks(lead))
        #expect(me.bytes == before)
        #expect(try Self.tasks(me) == mine)
        try lead.run(["sync"])
        #expect(!(try lead.run(["list", "--json"]).stdout.contains("My task")), "nothing published unasked")
    }

    /// People who sync before they add anything end up on one board, whoever
    /// syncs first (an earlier pm gave each its own board id, then refused).
    @Test func blankBoardsSyncedFirstShareOneBoard() throws {
        let pm = PMBinary()
        let share = pm.home.file("share")
        let people = ["a", "b", "c"].map { Copy(pm: pm, board: pm.home.file("\($0)/board.json"), user: $0) }
        for person in people {
            #expect(try person.run(["remote", "add", share]).status == 0)
            #expect(try person.run(["sync"]).status == 0)
        }
        for person in people { try person.run(["add", "From \(person.user)"]) }
        for person in people + people {
            let sync = try person.run(["sync"])
            #expect(sync.status == 0, "\(sync.stderr)")
        }
        #expect(people[0].folded == people[1].folded && people[1].folded == people[2].folded)
        #expect(try Self.tasks(people[0]).count == 3)
    }

    /// `pm remote add` says what it did: replacing a remote, making a
    /// folder, a repository not there yet; a relative path is the one typed,
    /// and a plain folder named `*.git` is a folder.
    @Test func remoteAddSaysWhatItDid() throws {
        let pm = PMBinary()
        let me = Copy(pm: pm, board: pm.home.file("me/board.json"), user: "me")
        let made = try me.run(["remote", "add", pm.home.file("new-share")])
        #expect(made.status == 0 && made.stdout.contains("did not exist: pm created it"), "\(made.stdout)")
        let missing = try me.run(["remote", "add", pm.home.file("nowhere.git")])
        #expect(missing.stdout.contains("no longer syncs with \(pm.home.file("new-share"))"), "\(missing.stdout)")
        #expect(missing.stdout.contains("There is no git repository at \(pm.home.file("nowhere.git")) yet"))
        #expect(missing.stdout.contains("(git repository)"))
        // A folder that happens to end in .git is a folder, now and after it is gone.
        let plain = pm.home.file("notes.git")
        try FileManager.default.createDirectory(atPath: plain, withIntermediateDirectories: true)
        let folder = try me.run(["remote", "add", plain])
        #expect(folder.stdout.contains("(folder)"), "\(folder.stdout)")
        try me.run(["add", "x"])
        #expect(try me.run(["sync"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: plain + "/pm-board.json"))
        try FileManager.default.removeItem(atPath: plain)
        let gone = try me.run(["sync"])
        #expect(gone.status == 75 && gone.stderr.contains(plain), "offline, as a folder: \(gone.stderr)")
        #expect(try me.run(["remote"]).stdout.contains("(folder)"))
        // A relative git path, typed in another folder: that folder's repository.
        let work = pm.home.file("work")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        _ = try runGit(["init", "-q", "--bare", work + "/team.git"])
        let relative = try pm.run(
            ["-c", "cd \"$0\" && exec \"$1\" remote add team.git --board \"$2\"", work, PMBinary.path, me.board],
            ["PM_USER": "me"], binary: "/bin/sh")
        #expect(relative.stdout.contains(work + "/team.git"), "\(relative.stdout)\(relative.stderr)")
        let sync = try me.run(["sync"])
        #expect(sync.status == 0, "\(sync.stderr)")
        let (found, _) = try runGit(["--git-dir=" + work + "/team.git", "rev-parse", "--verify", "-q", "refs/heads/pm-board"])
        #expect(found == 0, "the board is on the repository typed, not one inside pm's files")
    }
}

/// The log is the truth, the board's id included: a lost `board.json` is
/// made again as the same board, so sync and undo go on (an earlier pm gave
/// it a new id: sync refused it for ever and the undo history was orphaned).
@Suite struct BoardIdentityTests {
    typealias Copy = SyncEndToEndTests.Copy

    /// Two copies of a board on a folder remote, the real clock.
    static func pair(language: String = "en_US.UTF-8") throws -> (pm: PMBinary, me: Copy, other: Copy) {
        var pm = PMBinary(language: language)
        pm.environment["PM_NOW"] = nil
        let me = Copy(pm: pm, board: pm.home.file("me/board.json"), user: "camille")
        let other = Copy(pm: pm, board: pm.home.file("other/board.json"), user: "ji-woo")
        for person in [me, other] { #expect(try person.run(["remote", "add", pm.home.file("share")]).status == 0) }
        return (pm, me, other)
    }

    static func boardID(_ copy: Copy) -> String? {
        guard let data = copy.bytes, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return nil
        }
        return object["id"] as? String
    }

    @Test(arguments: [false, true])
    func aLostBoardFileComesBackAsTheSameBoard(olderLog: Bool) throws {
        let (pm, me, other) = try Self.pair()
        try me.run(["add", "Before"])
        #expect(try me.run(["sync"]).status == 0)
        #expect(try other.run(["sync"]).status == 0)
        let log = pm.home.file("me/board.events.jsonl")
        if olderLog {
            // A log an earlier pm wrote: no record of the board in it (and no marks beside it).
            let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            #expect(lines.first?.contains("\"kind\":\"board\"") == true)
            try Data((lines.dropFirst().joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: log))
            try FileManager.default.removeItem(atPath: pm.home.file("me/board.events.marks"))
            // …and the board file that stands at its end.
            let bytes = try #require(me.bytes)
            var board = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
            var position = try #require(board["log"] as? [String: Any])
            position["events"] = (position["events"] as? Int ?? 0) - 1
            position["length"] = (position["length"] as? Int ?? 0) - (lines[0].utf8.count + 1)
            board["log"] = position
            try JSONSerialization.data(withJSONObject: board).write(to: URL(fileURLWithPath: me.board))
            #expect(try me.run(["add", "Recorded now"]).status == 0)
            #expect(
                try String(contentsOfFile: log, encoding: .utf8).contains("\"kind\":\"board\""), "recorded at the next change")
        }
        let id = try #require(Self.boardID(me))
        try FileManager.default.removeItem(atPath: me.board)
        #expect(try me.run(["list", "--json"]).stdout.contains("Before"))
        let added = try me.run(["add", "After the loss"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(Self.boardID(me) == id, "the same board")
        let undo = try me.run(["undo"])
        #expect(undo.status == 0 && undo.stdout.contains("After the loss"), "the undo history goes on: \(undo.stdout)")
        try me.run(["add", "Synced after"])
        let sync = try me.run(["sync"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(try other.run(["sync"]).status == 0)
        #expect(try other.run(["list", "--json"]).stdout.contains("Synced after"))
        #expect(me.folded == other.folded)
    }
}

extension BoardIdentityTests {
    /// Only the log put back from a backup (an earlier pm: every command
    /// exit 65, "truncated?"): the board goes back to the log, what only
    /// board.json still held is kept as new changes and said, board.json as
    /// it was is kept beside it, and the other copies get the same board.
    @Test(arguments: ["en_US.UTF-8", "fr_FR.UTF-8", "ko_KR.UTF-8"])
    func aLogPutBackFromABackupIsGoneBackToKeepingWhatTheBoardHeld(language: String) throws {
        let (pm, me, other) = try Self.pair(language: language)
        try me.run(["add", "Kept from the start"])
        let renamed = try me.id(["add", "To be renamed"])
        #expect(try me.run(["sync"]).status == 0)
        let log = pm.home.file("me/board.events.jsonl")
        let backup = try Data(contentsOf: URL(fileURLWithPath: log))
        try me.run(["add", "Made after the backup"])
        try me.run(["edit", renamed, "--title", "Renamed after the backup"])
        try me.run(["move", renamed, "done"])
        let gone = try me.id(["add", "Added and removed after"])
        try me.run(["delete", gone])
        // board.json holds them once checkpointed (a change does so only every few hundred).
        #expect(try me.run(["checkpoint"]).status == 0)
        let before = try JoiningTests.tasks(me)
        try backup.write(to: URL(fileURLWithPath: log))
        let list = try me.run(["list", "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stderr.contains(log) && list.stderr.contains("before-log-restore"), "said: \(list.stderr)")
        #expect(try JoiningTests.tasks(me) == before, "what the board held is kept")
        for command in [["history"], ["status"], ["add", "And on"]] {
            #expect(try me.run(command).status == 0, "\(command)")
        }
        let copies = try FileManager.default.contentsOfDirectory(atPath: pm.home.file("me")).filter {
            $0.contains("before-log-restore")
        }
        #expect(copies.count == 1, "board.json as it was, kept: \(copies)")
        #expect(try me.run(["sync"]).status == 0)
        #expect(try other.run(["sync"]).status == 0)
        #expect(try JoiningTests.tasks(other) == JoiningTests.tasks(me))
        #expect(me.folded == other.folded)
    }
}
