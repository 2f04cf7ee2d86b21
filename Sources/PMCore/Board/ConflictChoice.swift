/// One value a field in conflict may take.
public struct ConflictChoice: Equatable, Sendable {
    public var field: String
    public var value: JSONValue
    /// The value shown now (the others were kept as the conflict).
    public var shown: Bool
    public init(field: String, value: JSONValue, shown: Bool) {
        self.field = field
        self.value = value
        self.shown = shown
    }

    /// Every value of every field in conflict on `task`, field by field, the shown one first.
    public static func all(of task: BoardTask) -> [ConflictChoice] {
        task.conflicts.keys.sorted().flatMap { field -> [ConflictChoice] in
            let current: JSONValue
            switch field {
            case "title": current = .string(task.title)
            case "body": current = .string(task.body)
            case "due": current = task.due.map { .string($0.description) } ?? .null
            case "state": current = .string(task.state.rawValue)
            default: return []
            }
            let others = (task.conflicts[field] ?? []).filter { $0 != current }
            return [ConflictChoice(field: field, value: current, shown: true)]
                + others.map { ConflictChoice(field: field, value: $0, shown: false) }
        }
    }
}
