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

extension JSONValue {
    /// Equal byte for byte (`==` takes canonically equivalent strings as one).
    public func isIdentical(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.string(let a), .string(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { value.isIdentical(to: $0) } ?? false }
        default: return self == other
        }
    }
}

extension JSONValue {
    /// How many values it holds, itself included, through every level: what
    /// reading, folding and writing it cost.
    public var valueCount: Int {
        switch self {
        case .array(let values): return values.reduce(1) { $0 + $1.valueCount }
        case .object(let members): return members.values.reduce(1 + members.count) { $0 + $1.valueCount }
        default: return 1
        }
    }
}
