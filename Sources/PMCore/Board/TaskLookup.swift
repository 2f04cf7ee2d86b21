/// Finds tasks by id prefix and computes the short ids `pm list` shows.
public enum TaskLookup {
    /// The shortest id prefix shown or accepted.
    public static let minimumPrefix = 4

    /// The task whose id is `text` or starts with it (4+ hex digits; dashes
    /// and case are ignored).
    /// - Throws: ``PMError/invalidID(_:)``, ``PMError/taskNotFound(_:)``, ``PMError/ambiguousID(_:candidates:titles:)``.
    public static func find(_ text: String, in board: Board) throws -> BoardTask {
        let wanted = String(text.lowercased().filter { $0 != "-" })
        guard wanted.count >= minimumPrefix, wanted.count <= 32,
            wanted.allSatisfy({ $0.isASCII && $0.isHexDigit })
        else { throw PMError.invalidID(text) }
        let prefix = Array(wanted.utf8)
        let matches = board.tasks.filter { $0.id.hasHexPrefix(prefix) }
        switch matches.count {
        case 0: throw PMError.taskNotFound(text)
        case 1: return matches[0]
        default: throw PMError.ambiguousID(text, candidates: matches.map(\.id), titles: matches.map(\.title))
        }
    }

    /// For every task, the shortest prefix of its id (at least 4 digits) that no other task shares.
    public static func shortIDs(for tasks: [BoardTask]) -> [TaskID: String] {
        let ids = tasks.map(\.id).sorted()
        var result: [TaskID: String] = [:]
        result.reserveCapacity(tasks.count)
        for (position, id) in ids.enumerated() {
            var length = minimumPrefix
            for neighbour in [position - 1, position + 1] where neighbour >= 0 && neighbour < ids.count {
                length = max(length, min(id.commonHexDigits(with: ids[neighbour]) + 1, 32))
            }
            result[id] = String(decoding: id.hexDigitBytes.prefix(length), as: UTF8.self)
        }
        return result
    }

    /// The short id of one task: the shortest prefix (4+) no other task shares.
    public static func shortID(of id: TaskID, among tasks: [BoardTask]) -> String {
        var length = minimumPrefix
        for task in tasks where task.id != id {
            let common = id.commonHexDigits(with: task.id)
            if common >= length { length = min(common + 1, 32) }
        }
        return String(decoding: id.hexDigitBytes.prefix(length), as: UTF8.self)
    }
}
