import PMICU

/// What makes an event from another copy unacceptable (DESIGN.md §9: the
/// remote is untrusted input). Such an event is quarantined — left out of
/// the board, counted and named — never fatal: the good events still merge.
public enum EventProblem: Equatable, Sendable {
    /// It claims a replica other than the file it came from (only a replica
    /// writes its own file).
    case wrongReplica(found: TaskID, expected: TaskID)
    /// Its clock is far ahead of this machine's: it would win every conflict.
    case futureClock(milliseconds: Int64)
    /// A title, body, author or line beyond what pm ever writes.
    case oversized(field: String)
    /// Control, escape or bidi characters pm never lets anyone type.
    case unsafeText(field: String)

    /// How far ahead of this machine's clock an event may be: two days
    /// (a machine whose clock is a day off still syncs).
    public static let clockTolerance: Int64 = 2 * 86_400_000
    /// The longest line an event may take (a full title and body, escaped, fit many times).
    public static let lineLimit = 64 * 1024

    /// The problem with `event`, or nil when it may be merged.
    /// - Parameters:
    ///   - replica: the replica whose file it came from, when known.
    ///   - now: this machine's wall clock, in milliseconds since 1970.
    public static func check(_ event: Event, replica: TaskID?, now: Int64) -> EventProblem? {
        if let replica, event.replica != replica { return .wrongReplica(found: event.replica, expected: replica) }
        if event.clock.milliseconds > now &+ clockTolerance { return .futureClock(milliseconds: event.clock.milliseconds) }
        if EventCodec.line(event).count > lineLimit { return .oversized(field: "line") }
        if event.author.count > TaskInput.titleLimit { return .oversized(field: "author") }
        if event.author.unicodeScalars.contains(where: TextSafety.isUnsafe) { return .unsafeText(field: "author") }
        for (name, values) in event.fields {
            for value in [values.new, values.old] + values.conflicts {
                guard case .string(let text) = value else { continue }
                switch name {
                case "title":
                    if text.count > TaskInput.titleLimit { return .oversized(field: name) }
                    if text.unicodeScalars.contains(where: TextSafety.isUnsafe) { return .unsafeText(field: name) }
                case "body":
                    if text.count > TaskInput.bodyLimit { return .oversized(field: name) }
                    if text.unicodeScalars.contains(where: { $0 != "\n" && $0 != "\t" && TextSafety.isUnsafe($0) }) {
                        return .unsafeText(field: name)
                    }
                default:
                    if text.unicodeScalars.contains(where: TextSafety.isUnsafe) { return .unsafeText(field: name) }
                }
            }
        }
        if let title = event.title {
            if title.count > TaskInput.titleLimit { return .oversized(field: "title") }
            if title.unicodeScalars.contains(where: TextSafety.isUnsafe) { return .unsafeText(field: "title") }
        }
        return nil
    }
}
