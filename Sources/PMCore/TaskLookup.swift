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
        let matches = board.tasks.filter { $0.id.hexDigits.hasPrefix(wanted) }
        switch matches.count {
        case 0: throw PMError.taskNotFound(text)
        case 1: return matches[0]
        default: throw PMError.ambiguousID(text, candidates: matches.map(\.id), titles: matches.map(\.title))
        }
    }

    /// For every task, the shortest prefix of its id (at least 4 digits) that no other task shares.
    public static func shortIDs(for tasks: [BoardTask]) -> [TaskID: String] {
        let ids = tasks.map { Array($0.id.hexDigits.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        var lengths: [[UInt8]: Int] = [:]
        for (index, id) in ids.enumerated() {
            var length = minimumPrefix
            for neighbour in [index > 0 ? ids[index - 1] : nil, index + 1 < ids.count ? ids[index + 1] : nil] {
                guard let neighbour else { continue }
                let common = zip(id, neighbour).prefix { $0 == $1 }.count
                length = max(length, min(common + 1, id.count))
            }
            lengths[id] = length
        }
        var result: [TaskID: String] = [:]
        for task in tasks {
            let digits = Array(task.id.hexDigits.utf8)
            result[task.id] = String(decoding: digits.prefix(lengths[digits] ?? 32), as: UTF8.self)
        }
        return result
    }

    /// The short id of one task: the shortest prefix (4+) no other task shares.
    public static func shortID(of id: TaskID, among tasks: [BoardTask]) -> String {
        let digits = Array(id.hexDigits.utf8)
        var length = minimumPrefix
        for task in tasks where task.id != id {
            let other = task.id.hexDigits.utf8
            let common = zip(digits, other).prefix { $0 == $1 }.count
            if common >= length { length = min(common + 1, digits.count) }
        }
        return String(decoding: digits.prefix(length), as: UTF8.self)
    }
}
