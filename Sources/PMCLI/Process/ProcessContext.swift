import FoundationEssentials
import PMCore
import PMKit
import PMLocalization
import PMViews

#if canImport(Glibc)
    import Glibc
#endif

/// The only place that reads the process environment: everything a command
/// needs, built once (STYLE.md "Side effects are injected").
struct ProcessContext {
    /// The board and the person: every use case goes through it.
    let session: BoardSession
    var environment: PMEnvironment { session.environment }
    /// The run this context serves: its localizer is made when first asked
    /// (a plain `pm add` prints no word and never makes it).
    let run: CurrentRun
    var localizer: Localizer { run.localizer }
    /// ICU locale for dates (`LC_ALL`, `LC_TIME`, `LANG`).
    var formatLocale: String
    var output: Output
    /// Terminal width in cells: `COLUMNS`, else the terminal, else 80.
    var width: Int
    var stdoutIsTerminal: Bool
    var noColor: Bool
    /// `TERM` (`pm board` refuses a terminal that cannot move the cursor).
    var term: String
    /// Between syncs under `pm sync --watch` and in `pm board`
    /// (`PM_SYNC_INTERVAL`, 0.1 s to a day; default 30 s).
    var syncIntervalMilliseconds = 30_000
    /// A `PM_SYNC_INTERVAL` that is no interval: refused by the two commands
    /// that wait it (``syncInterval()``), not by every command (a typo there
    /// must not stop `pm add`).
    var badSyncInterval: String?

    /// The interval between syncs, or the usage error of a bad `PM_SYNC_INTERVAL`.
    func syncInterval() throws -> Int {
        if let badSyncInterval { throw CLIError.invalidEnvironment("PM_SYNC_INTERVAL", badSyncInterval) }
        return syncIntervalMilliseconds
    }
    /// When reminders fire (`PM_REMIND_AT`, default 09:00).
    var reminders: ReminderSchedule { session.settings.reminders }

    /// The variables of this run (the process's, read once, for `pm`).
    static var variables: [String: String] { CurrentRun.now.invocation.variables }

    /// The localizer for this run's language; also used for help texts.
    static var localizer: Localizer { CurrentRun.now.localizer }

    /// Builds the live context.
    /// - Parameter boardOverride: `--board`, when given.
    /// - Throws: ``CLIError/invalidEnvironment`` for a malformed `PM_NOW` or `PM_LOCK_TIMEOUT`.
    static func live(boardOverride: String?) throws -> ProcessContext {
        let run = CurrentRun.now
        let invocation = run.invocation
        let variables = invocation.variables
        let parsed = try RunVariables(variables)
        let board = nonEmpty(boardOverride) ?? nonEmpty(variables["PM_BOARD"]) ?? parsed.dataHome + "/pm/board.json"
        let environment = PMEnvironment(
            now: parsed.now, makeID: { PMEnvironment.randomID() }, timeZone: parsed.timeZone, user: parsed.user,
            boardPath: board, stateDirectory: parsed.stateHome + "/pm")
        var settings = BoardSession.Settings()
        settings.lockTimeoutMilliseconds = parsed.lockTimeoutMilliseconds
        settings.boardFromOption = nonEmpty(boardOverride) != nil
        settings.reminders = parsed.reminders
        settings.processVariables = variables
        settings.standardInput = invocation.input
        let isTerminal = isatty(invocation.output) == 1
        var context = ProcessContext(
            session: BoardSession(environment: environment, settings: settings), run: run,
            formatLocale: parsed.formatLocale, output: Output(),
            width: terminalWidth(parsed.columns, output: invocation.output), stdoutIsTerminal: isTerminal,
            noColor: parsed.noColor, term: parsed.term)
        context.session.notice = { [run, output = context.output] notice in
            SessionNotices.say(notice, output: output, localizer: run.localizer)
        }
        context.session.afterChange = { [unowned session = context.session] board in
            DesktopReminders.afterChange(board, session: session)
        }
        context.syncIntervalMilliseconds = parsed.syncIntervalMilliseconds
        context.badSyncInterval = parsed.badSyncInterval
        return context
    }

    static let earliestNow = Date(timeIntervalSince1970: Double(CivilDate.first.daysSince1970 + 1) * 86_400)
    static let latestNow = Date(timeIntervalSince1970: Double(CivilDate.last.daysSince1970) * 86_400 - 1)

    /// `TZ` as glibc reads it: a zone file's name (`:Asia/Seoul`, `Asia/Seoul`)
    /// or a POSIX string (`KST-9`); unset means the system's zone.
    static func timeZone(_ value: String?) -> Zone {
        guard let value else { return Zone.system() }
        return Zone(tz: value)
    }

    /// The width of the terminal the user sits at: `COLUMNS`, else standard
    /// output's terminal, else the controlling terminal (so `pm list | less`
    /// fills a wide window), else 80.
    static func terminalWidth(_ columns: Int?, output: Int32) -> Int {
        if let columns { return columns }
        var size = winsize()
        if isatty(output) == 1, ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return min(Int(size.ws_col), 1000)
        }
        let tty = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
        if tty >= 0 {
            defer { close(tty) }
            if ioctl(tty, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return min(Int(size.ws_col), 1000) }
        }
        return 80
    }

    static func absolute(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/") else { return nil }
        return value
    }

    /// Who runs pm: PM_USER, else the login name.
    static func userName(_ variables: [String: String]) -> String {
        nonEmpty(variables["PM_USER"]) ?? nonEmpty(variables["USER"]) ?? "unknown"
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
    /// `pm recur` with neither a rule nor `--stop`, or with both.
    case recurNeedsRule
    /// `--limit` below 1.
    case invalidLimit(Int)
    /// A command-line argument (1-based) is not valid UTF-8.
    case argumentNotUTF8(Int)
    /// Standard output could not be written; `done` says what had already happened.
    case outputFailed(SystemCallError, done: Output.Done)
    /// `pm board` without a terminal on standard input and output.
    case boardNeedsTerminal
    /// `pm board` in a terminal that cannot move the cursor (`TERM`).
    case boardDumbTerminal(String)
    /// `pm export csv --delimiter` with a separator it does not offer.
    case csvDelimiter(String)
    /// `pm export csv --headers` with neither `local` nor `en`.
    case csvHeaders(String)
    /// `--member` not of the form `NAME=TEAMMATE`.
    case importMember(String)
    /// `--map` not of the form `LIST=STATE`.
    case importMap(String)
    /// `pm serve --port` outside 0–65535.
    case servePort(Int)
    /// `pm serve --listen` given what is not an IP address.
    case serveAddress(String)
    /// `pm serve --listen` on an address other machines reach.
    case serveNeedsInvites(String)
    /// `pm-serve` is not beside pm (at this path).
    case serveMissing(String)
    /// `pm serve invite` without an address, and none known from a `pm serve --listen`.
    case serveInviteAddress
    /// `pm serve revoke NAME`: NAME has no link.
    case serveNotInvited(String)
    /// `--tls-cert` without `--tls-key`, or the other way round.
    case serveTLSPair
    /// `pm serve --listen 0.0.0.0` or `::`.
    case serveAnyAddress(String)
    /// `pm serve invite` for the person who serves the board.
    case serveInviteSelf(String)
    /// `pm check ID ACTION` with an action it does not know.
    case checkAction(String)
    /// `pm check ID ACTION` with too few or too many words after it.
    case checkArguments(String)
    /// `pm check ID move N PLACE` with a place that is not 1 to `count`.
    case checkPlace(String, count: Int)
    /// `pm comment` with a text, `--edit` and `--withdraw` that do not go together.
    case commentOptions
    /// `pm l10n new` with a name that is not a language's (or is English's).
    case badLanguage(String)
}

/// Where text goes: standard output (buffered, written at the end, every
/// failure reported) and standard error (written at once).
final class Output {
    /// What a command has already done when its output fails: the message
    /// must say so, or a script retries and repeats it.
    enum Done {
        case nothing
        case changedBoard
        case wroteFile(String)
    }

    private var buffer: [UInt8] = []
    /// Set by a command once its change is saved.
    var done = Done.nothing
    /// The run's standard output and error.
    private let standardOutput: Int32
    private let standardError: Int32

    init() {
        let run = CurrentRun.now
        let invocation = run.invocation
        (standardOutput, standardError) = (invocation.output, invocation.error)
    }

    func write(_ text: String) { buffer.append(contentsOf: text.utf8) }
    func line(_ text: String = "") {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
    }

    /// Writes lines already made as UTF-8, each ended by a newline.
    func bytes(_ lines: [UInt8]) {
        if buffer.isEmpty { buffer = lines } else { buffer.append(contentsOf: lines) }
    }

    /// Writes an error line, after what standard output holds so far.
    func errorLine(_ text: String) {
        try? flush()
        _ = Self.writeAll(Array((text + "\n").utf8), to: standardError)
    }

    /// Writes what is buffered to standard output.
    /// - Throws: ``CLIError/outputFailed(_:done:)`` when it cannot (a full
    ///   disk, a closed descriptor); a closed pipe (`pm list | head`) is quiet.
    func flush() throws {
        guard !buffer.isEmpty else { return }
        let bytes = buffer
        buffer.removeAll()
        if let code = Self.writeAll(bytes, to: standardOutput), code != EPIPE {
            throw CLIError.outputFailed(SystemCallError(call: "write", code: code), done: done)
        }
    }

    /// Writes every byte; the `errno` of a failure, nil on success.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.write(descriptor, base + offset, raw.count - offset)
            }
            if count < 0, errno == EINTR { continue }
            if count < 0 { return errno }
            if count == 0 { return EIO }
            offset += count
        }
        return nil
    }
}
