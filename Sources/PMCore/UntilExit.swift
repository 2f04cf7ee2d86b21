/// Values a one-shot command keeps until the process exits: freeing a
/// 10k-task board, task by task, costs more than a third of reading it, and
/// the system takes the memory back at once when pm exits. Off by default (a
/// library user, `pm board`, `pm sync --watch` free as usual); the command
/// line turns it on for the commands that run once and exit.
public enum UntilExit {
    nonisolated(unsafe) private static var enabled = false
    nonisolated(unsafe) private static var kept: [Any] = []

    /// Keeps every value passed to ``keep(_:)`` from now on (call before any thread starts).
    public static func enable() { enabled = true }

    /// Keeps `value` alive until the process exits, when enabled.
    public static func keep(_ value: Any) {
        if enabled { kept.append(value) }
    }
}
