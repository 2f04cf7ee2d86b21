import FoundationEssentials

/// The world as the core sees it: every side effect it needs, injected.
///
/// The command layer builds one from the process environment
/// (`PM_NOW`, `TZ`, `PM_USER`, XDG variables); tests build one with a fixed
/// clock and counting ids.
public struct PMEnvironment: Sendable {
    /// The current instant (`PM_NOW` or the system clock).
    public var now: @Sendable () -> Date
    /// A new UUID for a task, board or event.
    public var makeID: @Sendable () -> TaskID
    /// The viewer's time zone (`TZ`).
    public var timeZone: Zone
    /// Who makes changes (`PM_USER`, else `USER`, else `unknown`).
    public var user: String
    /// The board file (`--board`, else `PM_BOARD`, else the XDG default).
    public var boardPath: String
    /// Per-user state (`$XDG_STATE_HOME/pm`).
    public var stateDirectory: String

    public init(
        now: @escaping @Sendable () -> Date, makeID: @escaping @Sendable () -> TaskID, timeZone: Zone,
        user: String, boardPath: String, stateDirectory: String
    ) {
        self.now = now
        self.makeID = makeID
        self.timeZone = timeZone
        self.user = user
        self.boardPath = boardPath
        self.stateDirectory = stateDirectory
    }

    /// The viewer's date today.
    public var today: CivilDate {
        Timestamp.civilDate(of: now(), in: timeZone)
    }

    /// A fresh random UUID.
    public static func randomID() -> TaskID {
        TaskID(unchecked: UUID().uuidString.lowercased())
    }
}
