import PMText

/// What a list shows of a task — its title, column, deadline, creation
/// time, assignees, labels, priority and checklist progress — kept in the
/// board's index (``BoardIndex``) beside where the task lies, so that `pm
/// list` and the tasks a change only places never read the task from the
/// board file. A card's checklist, comments and the heads of every field
/// are most of its bytes (a card with ten items and five comments is six
/// times a plain one), and a list shows none of them.
///
/// Only a task the index can say whole has one: a task with conflicts,
/// fields of a newer pm, a restored mark, no heads, a recurring deadline or a deadline with a time
/// (few on a board) is read from the file.
/// When the rest of a task is read (``TaskBox``), what the file holds must
/// be what its summary said, or the board is refused as damaged.
struct TaskSummary: Equatable {
    var title: String
    var state: TaskState
    var due: CivilDate?
    var createdAt: String
    var assignees: [String]
    var labels: [String]
    var priority: Priority?
    var done: Int
    var total: Int

    /// The summary of `task`; nil when a list would need more of it than a summary holds.
    init?(of task: BoardTask) {
        guard task.tracked, task.conflicts.isEmpty, task.unknownFields.isEmpty, !task.restored, task.recur == nil,
            task.dueTime == nil
        else {
            return nil
        }
        let progress = task.progress
        (title, state, due, createdAt) = (task.title, task.state, task.due, task.createdAt)
        (assignees, labels, priority, done, total) = (task.assignees, task.labels, task.priority, progress.done, progress.total)
    }

    /// The fields a summary says; the others (body, time of the last
    /// change, heads, live changes, checklist, comments) are read later.
    var fields: BoardTask.Fields {
        BoardTask.Fields(
            title: title, body: "", state: state, due: due, createdAt: createdAt, updatedAt: "", unknownFields: [:],
            assignees: assignees, labels: labels, priority: priority)
    }

    // MARK: Bytes

    /// The names summaries hold, each once, in the order first met; a
    /// summary holds their places in it.
    struct NameTable {
        private(set) var names: [String] = []
        /// By bytes: String's == takes an NFD name for its NFC form.
        private var places: [[UInt8]: Int] = [:]

        init() {}

        /// A table that holds `names` first, at their places.
        init(_ names: [String]) {
            for name in names { _ = place(of: name) }
        }

        mutating func place(of name: String) -> Int {
            let key = Array(name.utf8)
            if let known = places[key] { return known }
            places[key] = names.count
            names.append(name)
            return names.count - 1
        }

        /// A count, then each name with its length before it.
        static func encoded(_ names: [String]) -> [UInt8] {
            var out: [UInt8] = []
            put(UInt32(names.count), &out)
            for name in names { put(name, &out) }
            return out
        }

        /// The names read back; nil unless exactly that, each valid UTF-8.
        static func decoded(_ bytes: ArraySlice<UInt8>) -> [String]? {
            bytes.withUnsafeBufferPointer { buffer -> [String]? in
                var reader = Reader(bytes: buffer)
                guard let count = reader.word().map(Int.init), count <= buffer.count / 4 else { return nil }
                var names: [String] = []
                names.reserveCapacity(count)
                for _ in 0..<count {
                    guard let name = reader.text() else { return nil }
                    names.append(name)
                }
                return reader.at == buffer.count ? names : nil
            }
        }
    }

    /// State, priority (0: none), progress, then each text with its length
    /// before it (little-endian words of four bytes), then the assignees
    /// and labels: a count, and each one's place in `names`.
    func encode(into out: inout [UInt8], names: inout NameTable) {
        out.append(UInt8(TaskState.allCases.firstIndex(of: state) ?? 0))
        out.append(UInt8(priority.map { $0.rank } ?? 0))
        Self.put(UInt32(clamping: done), &out)
        Self.put(UInt32(clamping: total), &out)
        Self.put(due?.description ?? "", &out)
        Self.put(createdAt, &out)
        Self.put(title, &out)
        for list in [assignees, labels] {
            Self.put(UInt32(list.count), &out)
            for name in list { Self.put(UInt32(names.place(of: name)), &out) }
        }
    }

    /// A summary read back; nil unless it is exactly one, each text valid
    /// UTF-8 (the index's checksum is against torn writes, not a check).
    init?(decoding bytes: UnsafeBufferPointer<UInt8>, names: [String]) {
        var reader = Reader(bytes: bytes)
        guard let stateByte = reader.byte(), Int(stateByte) < TaskState.allCases.count, let rank = reader.byte(),
            let done = reader.word(), let total = reader.word(), done <= total, let due = reader.text(),
            let createdAt = reader.text(), let title = reader.text(), let assignees = reader.names(names),
            let labels = reader.names(names), reader.at == bytes.count
        else { return nil }
        if rank == 0 {
            priority = nil
        } else {
            guard let read = Priority.allCases.first(where: { $0.rank == Int(rank) }) else { return nil }
            priority = read
        }
        if due.isEmpty {
            self.due = nil
        } else {
            guard let date = CivilDate(iso: due) else { return nil }
            self.due = date
        }
        state = TaskState.allCases[Int(stateByte)]
        (self.title, self.createdAt, self.assignees, self.labels) = (title, createdAt, assignees, labels)
        (self.done, self.total) = (Int(done), Int(total))
    }

    private static func put(_ word: UInt32, _ out: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
    }

    private static func put(_ text: String, _ out: inout [UInt8]) {
        let utf8 = text.utf8
        put(UInt32(utf8.count), &out)
        out.append(contentsOf: utf8)
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        mutating func byte() -> UInt8? {
            guard at < bytes.count else { return nil }
            defer { at += 1 }
            return bytes[at]
        }

        mutating func word() -> UInt32? {
            guard bytes.count - at >= 4, let base = bytes.baseAddress else { return nil }
            defer { at += 4 }
            return UInt32(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt32.self))
        }

        mutating func text() -> String? {
            guard let count = word().map(Int.init), bytes.count - at >= count else { return nil }
            let text = UnsafeBufferPointer(rebasing: bytes[at..<(at + count)])
            at += count
            guard UTF8Validation.firstInvalidOffset(in: text) == nil else { return nil }
            return String(decoding: text, as: UTF8.self)
        }

        /// A count, then each name's place in `table`.
        mutating func names(_ table: [String]) -> [String]? {
            guard let count = word().map(Int.init), count <= (bytes.count - at) / 4 else { return nil }
            var names: [String] = []
            names.reserveCapacity(count)
            for _ in 0..<count {
                guard let place = word().map(Int.init), place < table.count else { return nil }
                names.append(table[place])
            }
            return names
        }
    }
}
