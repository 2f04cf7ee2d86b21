import PMProcess

/// Desktop notifications through the freedesktop notification service on
/// the session bus (`org.freedesktop.Notifications`), called with `gdbus`
/// (GLib's, on every GNOME, KDE or Xfce desktop). Without a session bus,
/// `gdbus` or a service that answers within two seconds, `notify` returns nil
/// and the caller prints the reminder instead. Arguments are GVariant text,
/// so none may begin with `-` (gdbus would read it as an option).
public struct DesktopNotifier: Sendable {
    let runner: ProcessRunner
    let hasBus: Bool

    public init(environment: [String: String]) {
        runner = ProcessRunner(environment: environment)
        hasBus = !(environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty
    }

    /// Shows a notification; its id, or nil when none could be shown.
    public func notify(summary: String, body: String) -> UInt32? {
        guard hasBus else { return nil }
        let arguments =
            call("Notify") + [
                Self.quoted("pm"), "0", Self.quoted(""), Self.quoted(summary), Self.quoted(body), "@as []",
                // Stays up until read or withdrawn (0: never expires), as a calendar's alarm does.
                "@a{sv} {}", "int32 0",
            ]
        guard let result = try? runner.run("gdbus", arguments, timeout: 2), result.status == 0, !result.timedOut else {
            return nil
        }
        // `(uint32 7,)`
        guard let start = result.output.firstRange(of: "uint32 ") else { return nil }
        let digits = result.output[start.upperBound...].prefix { $0.isNumber }
        return UInt32(digits)
    }

    /// Withdraws a notification shown earlier. False only when no service
    /// could be reached (no bus, no gdbus, nobody owning the name, no answer
    /// in time), so that the caller tries again later; a service that answers
    /// with an error (the notification is already gone) counts as withdrawn.
    @discardableResult
    public func close(_ id: UInt32) -> Bool {
        guard hasBus, let result = try? runner.run("gdbus", call("CloseNotification") + ["\(id)"], timeout: 2),
            !result.timedOut
        else { return false }
        if result.status == 0 { return true }
        let unreachable = [
            "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NoReply",
            "org.freedesktop.DBus.Error.NoServer", "org.freedesktop.DBus.Error.Disconnected",
            "org.freedesktop.DBus.Error.FileNotFound", "org.freedesktop.DBus.Error.Spawn",
            "org.freedesktop.DBus.Error.TimedOut", "Could not connect", "Error connecting",
        ]
        // gdbus missing (env's 127) or a bus that cannot be reached.
        return result.status != 127 && !unreachable.contains { result.errors.contains($0) }
    }

    private func call(_ method: String) -> [String] {
        [
            "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
            "/org/freedesktop/Notifications", "--method", "org.freedesktop.Notifications." + method,
        ]
    }

    /// A string in GVariant's text format: double-quoted, `\` and `"` escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
