/// Any JSON value, kept so that fields pm does not know survive a save.
///
/// Numbers keep their literal text, so `1.50` is written back as `1.50`.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}
