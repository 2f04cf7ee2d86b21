import Foundation
import PMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every channel out of pm: files it writes, standard output that fails,
/// and text that reaches a terminal or a script.
@Suite struct OutputChannelTests {
    func withDeadline(_ pm: PMBinary) throws {
        try pm.run(["add", "Dentist", "--due", "2026-11-25"])
    }

    /// Runs pm with standard output sent to `path` (`/dev/full`, a FIFO…).
    func run(_ pm: PMBinary, _ arguments: [String], stdout path: String) throws -> Run {
        let child = try runChild(PMBinary.path, arguments, environment: pm.environment, stdout: .file(path))
        return Run(status: child.status, stdout: "", stderr: String(decoding: child.stderr, as: UTF8.self))
    }

    @Test func exportWritesThroughADeviceAndAFIFONeverReplacingThem() throws {
        let pm = PMBinary()
        try withDeadline(pm)
        let toNull = try pm.run(["export", "ics", "--output", "/dev/null"])
        #expect(toNull.status == 0, "\(toNull.stderr)")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "/dev/null is still a device")

        let fifo = pm.home.file("calendar.fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        nonisolated(unsafe) var received = Data()
        let reader = Thread {
            if let handle = FileHandle(forReadingAtPath: fifo) { received = handle.readDataToEndOfFile() }
        }
        reader.start()
        let toFIFO = try pm.run(["export", "ics", "--output", fifo])
        #expect(toFIFO.status == 0, "\(toFIFO.stderr)")
        for _ in 0..<200 where received.isEmpty { usleep(10_000) }
        #expect(String(decoding: received, as: UTF8.self).contains("SUMMARY:Dentist"))
        #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO is still a FIFO")
    }

    @Test func exportThroughASymlinkWritesItsTargetAndKeepsTheLink() throws {
        let pm = PMBinary()
        try withDeadline(pm)
        pm.home.write("real.ics", "old")
        let link = pm.home.file("link.ics")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.ics")
        #expect(try pm.run(["export", "ics", "--output", link]).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.ics")
        #expect(String(decoding: pm.home.read("real.ics") ?? Data(), as: UTF8.self).contains("SUMMARY:Dentist"))
    }

    @Test func aFailedExportTalksAboutTheFileNotTheBoard() throws {
        let pm = PMBinary()
        try withDeadline(pm)
        let directory = try pm.run(["export", "ics", "--output", pm.home.path])
        #expect(directory.status == 74 && directory.stderr.contains("it is a directory"), "\(directory.stderr)")
        let missing = try pm.run(["export", "ics", "--output", pm.home.file("no/such/dir/x.ics")])
        #expect(missing.status == 74 && missing.stderr.contains("Cannot write"), "\(missing.stderr)")
        for run in [directory, missing] { #expect(!run.stderr.contains("board"), "\(run.stderr)") }
    }

    /// A full disk behind standard output is an error, never exit 0 with
    /// nothing written; a change that was made says so, so that a script
    /// does not retry and add the task twice.
    @Test func standardOutputThatCannotBeWrittenIsAnError() throws {
        let pm = PMBinary()
        let add = try run(pm, ["add", "written once"], stdout: "/dev/full")
        #expect(add.status == 74, "\(add.stderr)")
        #expect(add.stderr.contains("The change was made") && add.stderr.contains("the disk is full"), "\(add.stderr)")
        #expect(try pm.run(["list", "--json"]).stdout.components(separatedBy: "written once").count == 2)
        try withDeadline(pm)
        for arguments in [["export", "ics"], ["list"], ["--version"], ["--help"], ["history"]] {
            let run = try run(pm, arguments, stdout: "/dev/full")
            #expect(run.status == 74, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("Cannot write the output"), "\(arguments): \(run.stderr)")
        }
        // A closed pipe (pm list | head) stays quiet.
        let shell = try runChild(
            "/bin/sh", ["-c", "\"$0\" list | head -c 1 >/dev/null; exit ${PIPESTATUS:-0}", PMBinary.path],
            environment: pm.environment)
        let stderr = String(decoding: shell.stderr, as: UTF8.self)
        #expect(stderr.isEmpty, "\(stderr)")
    }

    /// ArgumentParser echoes what was typed; a table value and a file's text
    /// reach the terminal too. None of them raw.
    @Test func noChannelSendsControlSequencesRaw() throws {
        let pm = PMBinary()
        // Every control class: C0 (ESC, BEL), C1 (CSI), DEL, a bidi override, a line separator.
        let hostile = ["\u{1B}]52;c;cHduZWQ=\u{07}", "\u{9B}2J", "x\u{7F}y", "\u{202E}txt", "a\u{2028}b", "\u{2066}i"]
        for text in hostile {
            for arguments in [
                ["list", "--sort", text], ["add", "x", "--due", text], [text], ["show", text], ["move", "0000", text],
            ] {
                let run = try pm.run(arguments)
                #expect(
                    !run.stderr.unicodeScalars.contains { TextSafetyProbe.isControl($0) && $0 != "\n" },
                    "\(arguments): \(run.stderr)")
                #expect(run.status != 0)
            }
        }
        // A translator's table with an escape sequence in it.
        let tables = pm.home.file("l10n/fr.lproj")
        try FileManager.default.createDirectory(atPath: tables, withIntermediateDirectories: true)
        pm.home.write(
            "l10n/fr.lproj/Localizable.strings",
            "\"error.format\" = \"\u{1B}]52;c;AAAA\u{07}pm : %1$@\";\n\"column.todo\" = \"\u{202E}FAIRE\";\n")
        let env = ["PM_LOCALIZATION_DIR": pm.home.file("l10n"), "LANG": "fr_FR.UTF-8"]
        for arguments in [["show", "ffff"], ["list"], ["--help"]] {
            let run = try pm.run(arguments, env)
            let all = run.stdout + run.stderr
            #expect(
                !all.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E },
                "\(arguments): \(all)")
        }
        let check = try pm.run(["l10n", "check", pm.home.file("l10n")])
        #expect(
            check.status == 65 && check.stdout.contains("\\u{1B}") && check.stdout.contains("error.format"), "\(check.stdout)")
    }

    /// `--json` escapes C0, C1, DEL, bidi controls and U+2028/2029 that a
    /// shared file holds, so a script that prints a field cannot be driven.
    @Test func jsonOutputEscapesEveryControlClass() throws {
        let pm = PMBinary()
        let hostile = "a\\u001b[2Jb\\u0085c\\u007fd\\u202ee\\u2028f\\u2066g\\u061ch\\u009bi"
        let board = HostileInputTests.board(
            task: HostileInputTests.task.replacingOccurrences(of: "\"title\": \"Kept\"", with: "\"title\": \"\(hostile)\""))
        try Data(board.utf8).write(to: URL(fileURLWithPath: pm.boardPath))
        for arguments in [["list", "--json"], ["show", "0000", "--json"], ["edit", "0000", "--body", "x", "--json"]] {
            let run = try pm.run(arguments)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(
                !run.stdout.unicodeScalars.contains { TextSafetyProbe.isControl($0) && $0 != "\n" }, "\(arguments): raw control")
            for escape in ["\\u001b", "\\u0085", "\\u007f", "\\u202e", "\\u2028", "\\u2066", "\\u061c", "\\u009b"] {
                #expect(run.stdout.contains(escape), "\(arguments): \(escape) missing")
            }
            let parsed = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
            #expect(String(describing: parsed).contains("\u{85}") || arguments[0] != "list", "still the same text once parsed")
        }
        let file = String(decoding: pm.boardBytes() ?? Data(), as: UTF8.self)
        #expect(!file.unicodeScalars.contains { TextSafetyProbe.isControl($0) && $0 != "\n" }, "the saved board is safe to cat")
    }

    /// Messages say what happened: `--limit 0` is about an option, not an
    /// environment variable; an undo history that cannot be saved leaves the
    /// board unchanged and says so; a reminder log that cannot be saved says
    /// the reminders were shown.
    @Test func messagesNeverClaimWhatDidNotHappen() throws {
        let pm = PMBinary()
        let limit = try pm.run(["history", "--limit", "0"])
        #expect(
            limit.status == 64 && limit.stderr.contains("--limit") && !limit.stderr.contains("environment"), "\(limit.stderr)")

        try pm.run(["add", "due today", "--due", "2026-11-21"])
        let state = pm.home.file(".local/state/pm")
        let board = pm.boardBytes()
        // The state directory becomes a file: nothing can be saved in it.
        try FileManager.default.removeItem(atPath: state)
        pm.home.write(".local/state/pm", "not a directory")
        // The board's copy signs: without its key, no change of it is taken (issue 43, item 9).
        let add = try pm.run(["add", "second"])
        #expect(
            add.status == 74 && add.stderr.contains("signing key") && add.stderr.contains("nothing was changed"),
            "\(add.stderr)")
        #expect(pm.boardBytes() == board)
        // A copy that never had a key: its undo history cannot be saved either.
        let other = PMBinary()
        try FileManager.default.createDirectory(atPath: other.home.file(".local/state"), withIntermediateDirectories: true)
        other.home.write(".local/state/pm", "not a directory")
        let first = try other.run(["add", "first"])
        #expect(
            first.status == 74 && first.stderr.contains("undo history") && first.stderr.contains("The board was not changed"),
            "\(first.stderr)")
        #expect(!FileManager.default.fileExists(atPath: other.boardPath))
        let remind = try pm.run(["remind"])
        #expect(remind.stdout.contains("due today"), "the reminder is shown: \(remind.stdout)")
        #expect(remind.status == 74 && remind.stderr.contains("The reminders were shown"), "\(remind.stderr)")
        #expect(!remind.stderr.contains("unchanged"))
    }
}

/// The characters `--json` and the board file must never hold raw.
enum TextSafetyProbe {
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C, 0x2028, 0x2029: return true
        default: return false
        }
    }
}
