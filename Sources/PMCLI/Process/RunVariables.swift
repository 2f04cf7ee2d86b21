import FoundationEssentials
import PMCore
import PMLocalization

/// Every variable pm reads (DESIGN.md, "Environment variables"), parsed in
/// one place from a run's environment: a value pm cannot use is refused
/// here by its name, or kept aside for the commands that need it.
struct RunVariables {
    var timeZone: Zone
    /// `PM_NOW`, else the real clock.
    var now: @Sendable () -> Date
    var home: String
    /// `XDG_DATA_HOME`, `XDG_STATE_HOME` (a relative value is invalid and ignored, as the XDG spec says).
    var dataHome: String
    var stateHome: String
    /// `PM_USER`, else `USER`.
    var user: String
    /// `PM_LOCK_TIMEOUT`, 0 to 3600 s (default 5 s).
    var lockTimeoutMilliseconds = 5000
    /// `PM_SYNC_INTERVAL`, 0.1 s to a day (default 30 s); a value that is no
    /// interval is refused only by the commands that wait it.
    var syncIntervalMilliseconds = 30_000
    var badSyncInterval: String?
    /// `PM_REMIND_AT` (default 09:00).
    var reminders = ReminderSchedule()
    /// `TERM`, `COLUMNS`, `NO_COLOR`.
    var term: String
    /// `COLUMNS` when it is a width (1 and up, at most 1000 used).
    var columns: Int?
    var noColor: Bool
    /// `LC_ALL`, `LC_TIME`, `LANG`: the ICU locale dates are written in.
    var formatLocale: String

    /// - Throws: ``CLIError/invalidEnvironment`` for a malformed `PM_NOW`,
    ///   `PM_LOCK_TIMEOUT` or `PM_REMIND_AT`.
    init(_ variables: [String: String]) throws {
        let nonEmpty = ProcessContext.nonEmpty
        timeZone = ProcessContext.timeZone(variables["TZ"])
        if let fixed = nonEmpty(variables["PM_NOW"]) {
            // A day's margin inside years 1…9999, so that "today" is a day a
            // board can hold in every time zone.
            guard let date = Timestamp.parse(fixed, zone: timeZone), date >= ProcessContext.earliestNow,
                date <= ProcessContext.latestNow
            else {
                throw CLIError.invalidEnvironment("PM_NOW", fixed)
            }
            now = { date }
        } else {
            now = { Date() }
        }
        home = nonEmpty(variables["HOME"]) ?? "/"
        dataHome = ProcessContext.absolute(variables["XDG_DATA_HOME"]) ?? home + "/.local/share"
        stateHome = ProcessContext.absolute(variables["XDG_STATE_HOME"]) ?? home + "/.local/state"
        user = ProcessContext.userName(variables)
        if let text = nonEmpty(variables["PM_LOCK_TIMEOUT"]) {
            guard let seconds = Double(text), seconds >= 0, seconds <= 3600 else {
                throw CLIError.invalidEnvironment("PM_LOCK_TIMEOUT", text)
            }
            lockTimeoutMilliseconds = Int(seconds * 1000)
        }
        if let text = nonEmpty(variables["PM_SYNC_INTERVAL"]) {
            // A whole number of milliseconds, so that what the banner says is
            // what pm waits: `inf` would stop polling, `1e-9` spin.
            if let seconds = Double(text), seconds.isFinite, seconds >= 0.1, seconds <= 86_400,
                (seconds * 1000).rounded() == seconds * 1000
            {
                syncIntervalMilliseconds = Int(seconds * 1000)
            } else {
                badSyncInterval = text
            }
        }
        if let text = nonEmpty(variables["PM_REMIND_AT"]) {
            guard let parsed = ReminderSchedule(parsing: text) else { throw CLIError.invalidEnvironment("PM_REMIND_AT", text) }
            reminders = parsed
        }
        term = variables["TERM"] ?? ""
        columns = Self.columns(variables)
        noColor = nonEmpty(variables["NO_COLOR"]) != nil
        formatLocale = LanguageResolver.formatLocale(environment: variables)
    }

    /// `COLUMNS` as a width: a whole number from 1 (more than 1000 is 1000);
    /// nil otherwise. Also read alone by help, which runs when other
    /// variables would refuse the run.
    static func columns(_ variables: [String: String]) -> Int? {
        guard let text = variables["COLUMNS"], let value = Int(text), value > 0 else { return nil }
        return min(value, 1000)
    }
}
