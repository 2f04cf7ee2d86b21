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
        guard let prefix = TaskID.HexPrefix(Array(wanted.utf8)) else { throw PMError.invalidID(text) }
        // Ids compared where they lie: no task is copied until one matches.
        let matches = board.tasks.withUnsafeBufferPointer { tasks in
            tasks.indices.filter { prefix.matches(tasks[$0].id) }
        }
        switch matches.count {
        case 0: throw PMError.taskNotFound(text)
        case 1: return board.tasks[matches[0]]
        default:
            let found = matches.map { board.tasks[$0] }
            throw PMError.ambiguousID(text, candidates: found.map(\.id), titles: found.map(\.title))
        }
    }

    /// For every task, the shortest prefix of its id (at least 4 digits) that no other task shares.
    public static func shortIDs(for tasks: [BoardTask]) -> ShortIDs { ShortIDs(tasks) }

    /// The short id of one task: the shortest prefix (4+) no other task shares.
    public static func shortID(of id: TaskID, among tasks: [BoardTask]) -> String {
        var length = minimumPrefix
        tasks.withUnsafeBufferPointer { tasks in
            for index in tasks.indices where tasks[index].id != id {
                let common = id.commonHexDigits(with: tasks[index].id)
                if common >= length { length = min(common + 1, 32) }
            }
        }
        return id.hexPrefix(length)
    }
}

/// Every task's short id (``TaskLookup/shortIDs(for:)``): the ids in order,
/// each with the digits it needs, looked up by bisection. A dictionary of
/// Strings hashed every id twice and made a String each, for each `pm list`.
public struct ShortIDs: Sendable {
    private let ids: [TaskID]
    private let lengths: [UInt8]

    init(_ tasks: [BoardTask]) {
        let ids = tasks.map(\.id).sorted()
        self.ids = ids
        lengths = ids.indices.map { position in
            var length = TaskLookup.minimumPrefix
            if position > 0 { length = max(length, min(ids[position].commonHexDigits(with: ids[position - 1]) + 1, 32)) }
            if position + 1 < ids.count {
                length = max(length, min(ids[position].commonHexDigits(with: ids[position + 1]) + 1, 32))
            }
            return UInt8(length)
        }
    }

    /// The short id of `id`, or nil when it is not one of the tasks.
    public subscript(id: TaskID) -> String? { digits(of: id).map(id.hexPrefix) }

    /// How many hex digits the short id of `id` has, or nil when it is not one of the tasks.
    public func digits(of id: TaskID) -> Int? {
        var low = 0
        var high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        guard low < ids.count, ids[low] == id else { return nil }
        return Int(lengths[low])
    }
}
