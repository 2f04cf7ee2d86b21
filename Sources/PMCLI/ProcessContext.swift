import Foundation
import PMCore
import PMLocalization

#if canImport(Glibc)
    import Glibc
#endif

/// The only place that reads the process environment: everything a command
/// needs, built once (STYLE.md "Side effects are injected").
struct ProcessContext {
    var environment: PMEnvironment
    var localizer: Localizer
    /// ICU locale for dates (`LC_ALL`, `LC_TIME`, `LANG`).
    var formatLocale: String
    var output: Output
    /// Terminal width in cells: `COLUMNS`, else the terminal, else 80.
    var width: Int
    var stdoutIsTerminal: Bool
    var noColor: Bool
    var lockTimeoutMilliseconds: Int
    /// When reminders fire (`PM_REMIND_AT`, default 09:00).
    var reminders: ReminderSchedule

    /// The process's variables, read once.
    static let variables = ProcessInfo.processInfo.environment

    /// The localizer for the process's language; also used for help texts.
    static let localizer = Localizer(
        chain: LanguageResolver.messageChain(environment: variables),
        source: TableSource(overrideDirectory: variables["PM_LOCALIZATION_DIR"].flatMap { $0.isEmpty ? nil : $0 }))

    /// Builds the live context.
    /// - Parameter boardOverride: `--board`, when given.
    /// - Throws: ``CLIError/invalidEnvironment`` for a malformed `PM_NOW` or `PM_LOCK_TIMEOUT`.
    static func live(boardOverride: String?) throws -> ProcessContext {
        let variables = Self.variables
        let timeZone = Self.timeZone(variables["TZ"])
        let now: @Sendable () -> Date
        if let fixed = variables["PM_NOW"], !fixed.isEmpty {
            guard let date = Timestamp.parse(fixed, timeZone: timeZone) else {
                throw CLIError.invalidEnvironment("PM_NOW", fixed)
            }
            now = { date }
        } else {
            now = { Date() }
        }
        let home = nonEmpty(variables["HOME"]) ?? "/"
        let dataHome = nonEmpty(variables["XDG_DATA_HOME"]) ?? home + "/.local/share"
        let stateHome = nonEmpty(variables["XDG_STATE_HOME"]) ?? home + "/.local/state"
        let board = nonEmpty(boardOverride) ?? nonEmpty(variables["PM_BOARD"]) ?? dataHome + "/pm/board.json"
        let user = nonEmpty(variables["PM_USER"]) ?? nonEmpty(variables["USER"]) ?? "unknown"
        var lockTimeout = 5000
        if let text = nonEmpty(variables["PM_LOCK_TIMEOUT"]) {
            guard let seconds = Double(text), seconds >= 0, seconds <= 3600 else {
                throw CLIError.invalidEnvironment("PM_LOCK_TIMEOUT", text)
            }
            lockTimeout = Int(seconds * 1000)
        }
        var reminders = ReminderSchedule()
        if let text = nonEmpty(variables["PM_REMIND_AT"]) {
            guard let parsed = ReminderSchedule(parsing: text) else { throw CLIError.invalidEnvironment("PM_REMIND_AT", text) }
            reminders = parsed
        }
        let environment = PMEnvironment(
            now: now, makeID: { PMEnvironment.randomID() }, timeZone: timeZone, user: user, boardPath: board,
            stateDirectory: stateHome + "/pm")
        let isTerminal = isatty(STDOUT_FILENO) == 1
        return ProcessContext(
            environment: environment, localizer: localizer,
            formatLocale: LanguageResolver.formatLocale(environment: variables), output: Output(),
            width: terminalWidth(variables["COLUMNS"], isTerminal: isTerminal), stdoutIsTerminal: isTerminal,
            noColor: nonEmpty(variables["NO_COLOR"]) != nil, lockTimeoutMilliseconds: lockTimeout,
            reminders: reminders)
    }

    /// The store for this context's board.
    func store() -> BoardStore {
        BoardStore(
            path: environment.boardPath, lockTimeoutMilliseconds: lockTimeoutMilliseconds,
            sleep: { milliseconds in usleep(useconds_t(milliseconds * 1000)) })
    }

    /// `TZ` as Foundation reads it (`:Asia/Seoul` and `Asia/Seoul`); unknown zones are UTC, as in glibc.
    static func timeZone(_ value: String?) -> TimeZone {
        guard var name = value else { return TimeZone.current }
        if name.hasPrefix(":") { name.removeFirst() }
        if name.isEmpty { return TimeZone(identifier: "UTC") ?? TimeZone.current }
        return TimeZone(identifier: name) ?? TimeZone(abbreviation: name) ?? TimeZone(identifier: "UTC") ?? TimeZone.current
    }

    static func terminalWidth(_ columns: String?, isTerminal: Bool) -> Int {
        if let columns, let value = Int(columns), value > 0 { return min(value, 1000) }
        if isTerminal {
            var size = winsize()
            if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        }
        return 80
    }

    static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}

/// Errors of the command layer itself.
enum CLIError: Error {
    /// An environment variable has a value pm cannot use.
    case invalidEnvironment(String, String)
    /// `--due` and `--no-due` together.
    case dueAndNoDue
    /// `pm edit` with nothing to change.
    case nothingToEdit
    /// `--limit` below 1.
    case invalidLimit(Int)
}

/// Where text goes: standard output (buffered, written once at the end) and
/// standard error (written at once).
final class Output {
    private var buffer: [UInt8] = []

    init() {}

    func write(_ text: String) { buffer.append(contentsOf: text.utf8) }
    func line(_ text: String = "") {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
    }

    func errorLine(_ text: String) {
        flush()
        Self.writeAll(Array((text + "\n").utf8), to: STDERR_FILENO)
    }

    /// Writes what is buffered to standard output.
    func flush() {
        guard !buffer.isEmpty else { return }
        Self.writeAll(buffer, to: STDOUT_FILENO)
        buffer.removeAll()
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.write(descriptor, base + offset, raw.count - offset)
            }
            if count < 0, errno == EINTR { continue }
            // A closed pipe (pm list | head) is not an error worth reporting.
            if count <= 0 { return }
            offset += count
        }
    }
}
