import Foundation
import PMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `pm board` in a real terminal: tmux on a socket of its own, keys and SGR
/// mouse sequences sent in, the screen and the board file checked after each step.
@Suite(.serialized, .onOwnThreads) struct BoardTmuxTests {
    final class Session {
        let socket = "pm-test-\(UUID().uuidString.prefix(8))"
        let pm: PMBinary

        init(
            pm: PMBinary, width: Int = 100, height: Int = 24, language: String = "en_US.UTF-8", extra: [String: String] = [:],
            command: [String] = [PMBinary.path, "board"]
        ) throws {
            self.pm = pm
            var environment = pm.environment.merging(extra) { _, new in new }
            environment["LANG"] = language
            environment["TERM"] = extra["TERM"] ?? "xterm-256color"
            let variables = environment.map { "\($0.key)=\($0.value)" }.sorted()
            let shell = (["env", "-i"] + variables + command).map { "'\($0)'" }.joined(separator: " ")
            try tmux(["new-session", "-d", "-x", "\(width)", "-y", "\(height)", "\(shell); echo EXITED-$?; sleep 60"])
        }

        @discardableResult
        func tmux(_ arguments: [String]) throws -> String {
            // posix_spawn and waitpid, output to a file: the tmux server the
            // first call starts keeps whatever it inherited open for good.
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("pm-tmux-\(UUID().uuidString)").path
            defer { unlink(file) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            let argv = ["tmux", "-L", socket] + arguments
            var pointers = argv.map { strdup($0) } + [nil]
            defer { for pointer in pointers { free(pointer) } }
            var pid: pid_t = 0
            // A machine short of processes for a moment (both cores busy, a
            // chaos test forking git) refuses a spawn: try again, as a shell would.
            var failed = posix_spawnp(&pid, "tmux", &actions, nil, &pointers, environ)
            for _ in 0..<100 where failed == EAGAIN || failed == ENOMEM {
                usleep(20_000)
                failed = posix_spawnp(&pid, "tmux", &actions, nil, &pointers, environ)
            }
            guard failed == 0 else { return "" }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        }

        var screen: String { (try? tmux(["capture-pane", "-p", "-t", "0"])) ?? "" }

        func keys(_ keys: String...) throws { try tmux(["send-keys", "-t", "0"] + keys) }
        func raw(_ text: String) throws { try tmux(["send-keys", "-t", "0", "-l", text]) }

        /// Waits up to `seconds` for the screen to satisfy `condition` (it
        /// returns as soon as it does: a long wait costs only a failing test).
        func waitFor(_ seconds: Double = 10, _ condition: (String) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition(screen) { return true }
                usleep(50_000)
            }
            return condition(screen)
        }

        /// Ends the tmux server and everything in it.
        func close() {
            let server = Int32(
                ((try? tmux(["display-message", "-p", "#{pid}"])) ?? "").trimmingCharacters(in: .whitespacesAndNewlines))
            _ = try? tmux(["kill-server"])
            if let server, server > 0 { kill(server, SIGKILL) }
            unlink("/tmp/tmux-\(getuid())/\(socket)")
        }
    }

    func state(_ pm: PMBinary, _ title: String) throws -> String? {
        let list = try pm.run(["list", "--json"]).stdout
        let tasks = try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [[String: Any]] ?? []
        return tasks.first { $0["title"] as? String == title }?["state"] as? String
    }

    func board() throws -> PMBinary {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        try pm.run(["add", "Write the report", "--due", "2026-11-01"])
        try pm.run(["add", "디자인 검토"])
        try pm.run(["add", "Réunion d\u{2019}équipe"])
        return pm
    }

    @Test func navigateMoveByKeyMenuAndMouseUndoRedoAndQuit() throws {
        let pm = try board()
        let session = try Session(pm: pm)
        defer { session.close() }
        #expect(session.waitFor { $0.contains("TODO (3)") && $0.contains("디자인 검토") }, "\(session.screen)")
        try session.keys("Down")
        try session.keys(">")
        #expect(session.waitFor { $0.contains("DOING (1)") })
        #expect(try state(pm, "디자인 검토") == "doing", "moved on disk")
        // The move menu: Enter, then the column's number.
        try session.keys("Left")
        try session.keys("Enter")
        #expect(session.waitFor { $0.contains("Move 'Write the report' to:") })
        try session.keys("3")
        #expect(session.waitFor { $0.contains("DONE (1)") })
        #expect(try state(pm, "Write the report") == "done")
        // Drag 'Réunion' (first card of TODO) onto DOING.
        try session.raw("\u{1B}[<0;3;3M")
        try session.raw("\u{1B}[<32;40;3M")
        try session.raw("\u{1B}[<0;40;3m")
        #expect(session.waitFor { $0.contains("TODO (0)") && $0.contains("DOING (2)") }, "\(session.screen)")
        #expect(try state(pm, "Réunion d\u{2019}équipe") == "doing")
        try session.keys("u")
        #expect(session.waitFor { $0.contains("Undid") && $0.contains("TODO (1)") })
        #expect(try state(pm, "Réunion d\u{2019}équipe") == "todo")
        try session.keys("C-y")
        #expect(session.waitFor { $0.contains("Redid") })
        #expect(try state(pm, "Réunion d\u{2019}équipe") == "doing")
        // The history panel: the board's, then the selected card's own.
        try session.keys("t")
        #expect(session.waitFor { $0.contains("History, newest first") && $0.contains("Redid: moved") }, "\(session.screen)")
        try session.keys("Tab")
        #expect(session.waitFor { $0.contains("History of 'Réunion") && !$0.contains("Write the report") }, "\(session.screen)")
        try session.keys("Escape")
        #expect(session.waitFor { $0.contains("DOING (2)") && !$0.contains("History") })
        // Delete asks; No is the default.
        try session.keys("d")
        #expect(session.waitFor { $0.contains("Delete '") })
        try session.keys("Enter")
        #expect(session.waitFor { !$0.contains("Delete '") })
        #expect(try pm.run(["list", "--json"]).stdout.contains("Réunion"))
        try session.keys("q")
        #expect(session.waitFor { $0.contains("EXITED-0") }, "\(session.screen)")
    }

    /// Another process's change shows up within 2 s; a resize redraws; Ctrl-C
    /// and SIGTERM both leave the terminal restored (the shell's output is back).
    @Test func liveChangesResizeAndEveryWayOutRestoresTheTerminal() throws {
        let pm = try board()
        let session = try Session(pm: pm, language: "ko_KR.UTF-8")
        defer { session.close() }
        #expect(session.waitFor { $0.contains("할 일 (3)") })
        let list = try pm.run(["list", "--json"]).stdout
        let id = try #require(
            (try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [[String: Any]])?.first?["id"] as? String)
        try pm.run(["move", id, "done"])
        #expect(session.waitFor(2.5) { $0.contains("완료 (1)") }, "another process's move within 2 s: \(session.screen)")
        try session.tmux(["resize-window", "-t", "0", "-x", "50", "-y", "20"])
        #expect(
            session.waitFor { screen in screen.split(separator: "\n").allSatisfy { $0.count <= 50 } && screen.contains("할 일 (2)")
            })
        try session.keys("C-c")
        #expect(session.waitFor { $0.contains("EXITED-0") }, "\(session.screen)")

        let second = try Session(pm: pm)
        defer { second.close() }
        #expect(second.waitFor { $0.contains("TODO (2)") })
        let pane = try second.tmux(["display-message", "-p", "-t", "0", "#{pane_pid}"]).trimmingCharacters(
            in: .whitespacesAndNewlines)
        // The board is a child of the pane's shell: find it and send SIGTERM.
        let children = try String(contentsOfFile: "/proc/\(pane)/task/\(pane)/children", encoding: .utf8)
        for child in children.split(separator: " ").compactMap({ Int32($0) }) { kill(child, SIGTERM) }
        #expect(second.waitFor { $0.contains("EXITED-0") && !$0.contains("TODO (2)") }, "\(second.screen)")
        #expect(
            try second.tmux(["display-message", "-p", "-t", "0", "#{alternate_on}"]).hasPrefix("0"),
            "the alternate screen is left")
    }

    /// The form: add with a Korean title and a French `demain` deadline
    /// (checked as typed), the real cursor at the caret, then edit and delete.
    @Test func addWithAKoreanTitleAndDemainThenEditAndDelete() throws {
        let pm = PMBinary(language: "fr_FR.UTF-8")
        try pm.run(["add", "Existante"])
        let session = try Session(pm: pm, language: "fr_FR.UTF-8")
        defer { session.close() }
        #expect(session.waitFor { $0.contains("À FAIRE (1)") })
        try session.keys("a")
        #expect(session.waitFor { $0.contains("Nouvelle carte") })
        try session.raw("회의 준비")
        let cursor = {
            (try? session.tmux(["display-message", "-p", "-t", "0", "#{cursor_x}"]))?.trimmingCharacters(
                in: .whitespacesAndNewlines)
        }
        // The caret is read only once the typed title is on screen (the draw may lag the keys).
        #expect(session.waitFor { $0.contains("회의 준비") })
        var afterTitle = -1
        _ = session.waitFor { _ in
            afterTitle = Int(cursor() ?? "") ?? -1
            return afterTitle > 0
        }
        try session.keys("Left")
        #expect(
            session.waitFor { _ in Int(cursor() ?? "") == afterTitle - 2 }, "the caret moves by one Hangul syllable (two cells)")
        try session.keys("End", "Tab")
        try session.raw("notes")
        try session.keys("Tab")
        try session.raw("demani")
        #expect(session.waitFor { $0.contains("Date non reconnue") }, "checked as typed: \(session.screen)")
        try session.keys("BSpace", "BSpace")
        try session.raw("in")
        #expect(session.waitFor { $0.contains("→ 22 nov. 2026") }, "\(session.screen)")
        try session.keys("Enter")
        #expect(session.waitFor { $0.contains("ajoutée") && $0.contains("À FAIRE (2)") }, "\(session.screen)")
        let added = try pm.run(["list", "--json"]).stdout
        #expect(
            added.contains("\"title\": \"회의 준비\"") && added.contains("\"due\": \"2026-11-22\"") && added.contains("notes"),
            "\(added)")
        // Edit the new card (selected once added): its title only.
        try session.keys("e")
        #expect(session.waitFor { $0.contains("Modifier « 회의 준비 »") })
        try session.keys("BSpace", "BSpace")
        try session.raw("회의")
        try session.keys("Escape")
        #expect(session.waitFor { $0.contains("Abandonner vos modifications") }, "Esc asks before losing a change")
        try session.keys("n", "Enter")
        // The form shows the typed title before Enter is read: wait for the
        // board itself to hold it, not for the screen to show it.
        #expect(
            session.waitFor(10) { _ in (try? pm.run(["list", "--json"]).stdout.contains("회의 회의")) == true },
            "\(session.screen)")
        #expect(session.waitFor { !$0.contains("Modifier « 회의") }, "the form closed: \(session.screen)")
        try session.keys("d", "y")
        #expect(session.waitFor { $0.contains("À FAIRE (1)") })
        #expect(!(try pm.run(["list", "--json"]).stdout.contains("회의")))
    }

    /// A board on the real clock and a colleague's copy (camille, `--board`)
    /// that share one folder remote: the arguments and variables that run pm as them.
    static func withColleague() throws -> (PMBinary, colleague: [String], them: [String: String]) {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        let share = pm.home.file("share")
        let colleague = ["--board", pm.home.file("colleague/board.json")]
        let them = ["PM_USER": "camille"]
        try pm.run(["remote", "add", share])
        try pm.run(["remote", "add", share] + colleague, them)
        return (pm, colleague, them)
    }

    /// A remote set: the board syncs in the background, so a colleague's
    /// card appears without a key pressed, and a card added here reaches them.
    @Test func theBoardSyncsInTheBackground() throws {
        let (pm, colleague, them) = try Self.withColleague()
        try pm.run(["add", "Mine"])
        try pm.run(["sync"])
        try pm.run(["sync"] + colleague, them)
        let session = try Session(pm: pm, extra: ["PM_SYNC_INTERVAL": "0.5"])
        defer { session.close() }
        #expect(session.waitFor { $0.contains("TODO (1)") })
        try pm.run(["add", "From Camille"] + colleague, them)
        try pm.run(["sync"] + colleague, them)
        #expect(session.waitFor { $0.contains("From Camille") }, "\(session.screen)")
        try session.keys("a")
        try session.raw("From the board")
        try session.keys("Enter")
        var arrived = false
        for _ in 0..<40 where !arrived {
            usleep(100_000)
            try pm.run(["sync"] + colleague, them)
            arrived = try pm.run(["list", "--json"] + colleague, them).stdout.contains("From the board")
        }
        #expect(arrived, "a card added on the board reached the colleague through the background sync")
    }
}
