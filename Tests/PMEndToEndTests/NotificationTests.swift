import Foundation
import PMTestSupport
import Testing

/// `pm remind --notify` against a real session bus (Debian's dbus-daemon,
/// on a private socket) with a recording notification service on it,
/// and the systemd user units that run it, checked by systemd itself.
@Suite(.serialized, .onOwnThreads) struct NotificationTests {
    static let fixtures = PMBinary.packageRoot.appendingPathComponent("Tests/PMEndToEndTests/Fixtures")

    func require(_ program: String) throws -> String {
        for directory in ["/usr/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(directory)/\(program)") {
            return "\(directory)/\(program)"
        }
        Issue.record("\(program) is missing: install the README's prerequisites line")
        throw CancellationError()
    }

    /// A private session bus (Debian's dbus-daemon) and, unless `service` is
    /// false, `Fixtures/notification-service.py` owning
    /// org.freedesktop.Notifications on it, recording every call it gets.
    final class NotificationBus {
        let scratch = TemporaryDirectory()
        var address: String { "unix:path=" + scratch.file("bus") }
        var daemons: [ChildProcess] = []

        init(service: Bool = true) throws {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon") else {
                Issue.record("dbus-daemon is missing: install the README's prerequisites line")
                throw CancellationError()
            }
            daemons.append(try Self.spawn(["/usr/bin/dbus-daemon", "--session", "--nofork", "--address=" + address], [:]))
            guard Self.wait(20, { FileManager.default.fileExists(atPath: self.scratch.file("bus")) }) else {
                Issue.record("dbus-daemon did not start")
                throw CancellationError()
            }
            guard service else { return }
            // The system's python3 has Debian's python3-gi; pip's may not.
            guard let python = ["/usr/bin/python3", "/bin/python3"].first(where: FileManager.default.isExecutableFile) else {
                Issue.record("python3 is missing: install the README's prerequisites line")
                throw CancellationError()
            }
            let script = NotificationTests.fixtures.appendingPathComponent("notification-service.py").path
            daemons.append(
                try Self.spawn(
                    [python, script, scratch.file("calls"), scratch.file("ready")], ["DBUS_SESSION_BUS_ADDRESS": address]))
            guard Self.wait(20, { FileManager.default.fileExists(atPath: self.scratch.file("ready")) }) else {
                Issue.record("the notification service did not start (python3-gi: the README's prerequisites line)")
                throw CancellationError()
            }
        }

        /// A daemon of the bus, output thrown away (``ChildProcess``: no
        /// signal blocked, no stray descriptor); killed and reaped when the bus goes.
        static func spawn(_ argv: [String], _ extra: [String: String]) throws -> ChildProcess {
            try ChildProcess(
                argv[0], Array(argv.dropFirst()),
                environment: ProcessInfo.processInfo.environment.merging(extra) { _, new in new }, stdout: .discard,
                stderr: .discard)
        }

        static func wait(_ seconds: Double, _ condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition() { return true }
                usleep(20_000)
            }
            return condition()
        }

        /// The calls recorded so far.
        func calls() -> [[String: Any]] {
            let text = scratch.read("calls").map { String(decoding: $0, as: UTF8.self) } ?? ""
            return text.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        func notifications() -> [[String: Any]] { calls().filter { $0["method"] as? String == "Notify" } }
        func closed() -> [UInt32] {
            calls().filter { $0["method"] as? String == "CloseNotification" }.compactMap { ($0["id"] as? NSNumber)?.uint32Value }
        }

        deinit {
            for daemon in daemons.reversed() {
                daemon.send(SIGKILL)
                daemon.wait()
            }
        }
    }

    func id(of run: Run) -> String { run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) }

    @Test func aFrenchReminderPopsUpAndIsWithdrawnWhenDoneOrRedated() throws {
        let bus = try NotificationBus()
        let pm = PMBinary(language: "fr_FR.UTF-8")
        let onBus = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        let report = id(of: try pm.run(["add", "Écrire le rapport", "--due", "2026-11-21"]))
        let meeting = id(of: try pm.run(["add", "Réunion d’équipe", "--due", "aujourd’hui"]))
        try pm.run(["add", "Plus tard", "--due", "2026-11-25"])
        let first = try pm.run(["remind", "--notify"], onBus)
        #expect(first.status == 0 && first.stdout.isEmpty, "\(first.stdout)\(first.stderr)")
        let shown = bus.notifications()
        #expect(shown.count == 2, "\(bus.calls())")
        let summaries = Set(shown.compactMap { $0["summary"] as? String })
        #expect(summaries == ["Échéance aujourd’hui : Écrire le rapport", "Échéance aujourd’hui : Réunion d’équipe"])
        let bodies = shown.compactMap { $0["body"] as? String }
        #expect(bodies.contains { $0.hasPrefix("Rappel : « Écrire le rapport » arrive à échéance aujourd’hui (21 nov. 2026)") })
        #expect(shown.allSatisfy { $0["app"] as? String == "pm" })
        func notification(_ title: String) -> UInt32? {
            shown.first { ($0["summary"] as? String)?.hasSuffix(title) == true }.flatMap { ($0["id"] as? NSNumber)?.uint32Value }
        }
        // Seen once: the next run (the timer's, 15 minutes later) shows nothing again.
        let again = try pm.run(["remind", "--notify"], onBus)
        #expect(again.status == 0 && again.stdout.isEmpty && bus.notifications().count == 2)
        #expect(bus.closed().isEmpty)
        // Done: its notification is withdrawn by pm done itself.
        #expect(try pm.run(["done", report], onBus).status == 0)
        #expect(bus.closed() == [notification("Écrire le rapport")].compactMap { $0 }, "\(bus.calls())")
        // Redated where no bus is reached (an ssh session): withdrawn by the next pm remind.
        #expect(try pm.run(["edit", meeting, "--due", "2026-11-28"], ["DBUS_SESSION_BUS_ADDRESS": ""]).status == 0)
        #expect(bus.closed().count == 1)
        let later = try pm.run(["remind", "--notify"], onBus)
        #expect(later.status == 0 && later.stdout.isEmpty)
        #expect(bus.closed() == [notification("Écrire le rapport"), notification("Réunion d’équipe")].compactMap { $0 })
        #expect(bus.notifications().count == 2)
        // Nothing left up: a further run closes nothing twice.
        _ = try pm.run(["remind", "--notify"], onBus)
        #expect(bus.closed().count == 2)
    }

    @Test func aKoreanReminderOnTheRealClockIsWithdrawnWhenDeleted() throws {
        let bus = try NotificationBus()
        var pm = PMBinary(language: "ko_KR.UTF-8")
        pm.environment["PM_NOW"] = nil
        pm.environment["PM_REMIND_AT"] = "00:00"
        let onBus = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        let task = id(of: try pm.run(["add", "보고서 작성", "--due", "today"]))
        let run = try pm.run(["remind", "--notify"], onBus)
        #expect(run.status == 0 && run.stdout.isEmpty, "\(run.stdout)\(run.stderr)")
        let shown = bus.notifications()
        #expect(shown.map { $0["summary"] as? String } == ["오늘 마감: 보고서 작성"], "\(bus.calls())")
        #expect((shown.first?["body"] as? String)?.hasPrefix("알림: '보고서 작성'의 마감일이 오늘(") == true)
        #expect(try pm.run(["delete", task], onBus).status == 0)
        #expect(bus.closed() == [(shown.first?["id"] as? NSNumber)?.uint32Value].compactMap { $0 }, "\(bus.calls())")
    }

    @Test func withoutANotificationServiceTheReminderIsPrinted() throws {
        let pm = PMBinary(language: "fr_FR.UTF-8")
        try pm.run(["add", "Écrire le rapport", "--due", "2026-11-21"])
        // No session bus at all (a cron job, an ssh session).
        let alone = try pm.run(["remind", "--notify"], ["DBUS_SESSION_BUS_ADDRESS": ""])
        #expect(alone.status == 0)
        #expect(alone.stdout == "Rappel : « Écrire le rapport » arrive à échéance aujourd’hui (21 nov. 2026).\n")
        // A bus where nobody serves notifications: printed too, without waiting long.
        let other = PMBinary(language: "fr_FR.UTF-8")
        try other.run(["add", "Réunion", "--due", "2026-11-21"])
        let empty = try NotificationBus(service: false)
        let started = Date()
        let bus = try other.run(["remind", "--notify"], ["DBUS_SESSION_BUS_ADDRESS": empty.address])
        #expect(bus.status == 0)
        #expect(bus.stdout == "Rappel : « Réunion » arrive à échéance aujourd’hui (21 nov. 2026).\n", "\(bus.stderr)")
        #expect(Date().timeIntervalSince(started) < 10)
        // Printed is shown: not again.
        #expect(try other.run(["remind", "--notify"], ["DBUS_SESSION_BUS_ADDRESS": ""]).stdout.isEmpty)
    }

    @Test func theInstalledTimerAndServicePassSystemdsOwnCheck() throws {
        let analyze = try require("systemd-analyze")
        // systemd-analyze runs man (the units' Documentation=), which a faked clock stops.
        let pm = PMBinary.withoutFakedClock()
        // The README's install step, into the default prefix of a scratch HOME.
        let install = try pm.run(
            [PMBinary.packageRoot.appendingPathComponent("Resources/install.sh").path], ["PM_BINARY": PMBinary.path],
            binary: "/bin/sh")
        #expect(install.status == 0, "\(install.stderr)")
        let units = pm.home.file(".config/systemd/user")
        let service = try String(contentsOfFile: units + "/pm-remind.service", encoding: .utf8)
        #expect(service.contains("ExecStart=\(pm.home.path)/.local/bin/pm remind --notify\n"))
        let runtime = pm.home.file("run")
        try FileManager.default.createDirectory(
            atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // man finds pm(1) (the units' Documentation=) from the installed bin folder on PATH.
        let environment = ["XDG_RUNTIME_DIR": runtime, "PATH": "\(pm.home.path)/.local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"]
        let verify = try pm.run(
            ["--user", "verify", units + "/pm-remind.timer", units + "/pm-remind.service"], environment, binary: analyze)
        #expect(verify.status == 0 && verify.stderr.isEmpty && verify.stdout.isEmpty, "\(verify.stdout)\(verify.stderr)")
        // The check can fail: a misspelt setting is reported.
        try service.replacingOccurrences(of: "Type=oneshot", with: "Type=oneshoot")
            .write(toFile: units + "/pm-remind.service", atomically: true, encoding: .utf8)
        let broken = try pm.run(["--user", "verify", units + "/pm-remind.service"], environment, binary: analyze)
        #expect(broken.stderr.contains("oneshoot"))
    }
}
