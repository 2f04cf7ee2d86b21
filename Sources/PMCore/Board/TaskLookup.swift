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
        let matches = board.tasks.filter { $0.id.hexDigitBytes.starts(with: prefix) }
        switch matches.count {
        case 0: throw PMError.taskNotFound(text)
        case 1: return matches[0]
        default: throw PMError.ambiguousID(text, candidates: matches.map(\.id), titles: matches.map(\.title))
        }
    }

    /// For every task, the shortest prefix of its id (at least 4 digits) that no other task shares.
    public static func shortIDs(for tasks: [BoardTask]) -> [TaskID: String] {
        let digits = tasks.map(\.id.hexDigitBytes)
        let order = digits.indices.sorted { digits[$0].lexicographicallyPrecedes(digits[$1]) }
        var result: [TaskID: String] = [:]
        result.reserveCapacity(tasks.count)
        for (position, index) in order.enumerated() {
            let id = digits[index]
            var length = minimumPrefix
            for neighbour in [position - 1, position + 1] where neighbour >= 0 && neighbour < order.count {
                let other = digits[order[neighbour]]
                var common = 0
                while common < id.count, id[common] == other[common] { common += 1 }
                length = max(length, min(common + 1, id.count))
            }
            result[tasks[index].id] = String(decoding: id.prefix(length), as: UTF8.self)
        }
        return result
    }

    /// The short id of one task: the shortest prefix (4+) no other task shares.
    public static func shortID(of id: TaskID, among tasks: [BoardTask]) -> String {
        let digits = id.hexDigitBytes
        var length = minimumPrefix
        for task in tasks where task.id != id {
            let other = task.id.hexDigitBytes
            var common = 0
            while common < digits.count, digits[common] == other[common] { common += 1 }
            if common >= length { length = min(common + 1, digits.count) }
        }
        return String(decoding: digits.prefix(length), as: UTF8.self)
    }
}
