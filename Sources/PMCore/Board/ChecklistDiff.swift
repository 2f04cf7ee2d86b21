/// The changes that turn a checklist into the items a person typed (the
/// board's form: an item a line): an item kept keeps its id, so that a
/// colleague's tick or rename of it meanwhile still merges with what this
/// person did to it.
extension CardChange {
    /// - Parameters:
    ///   - items: the items shown when the form opened, in order.
    ///   - typed: each line's text and tick, in order.
    public static func checklist(from items: [ChecklistItem], to typed: [(text: String, done: Bool)]) -> [CardChange] {
        let old = items.map { $0.text ?? "" }
        var pairs: [(old: Int, new: Int)] = []
        if old.count == typed.count {
            // As many lines as items: each line is its item, renamed or not.
            pairs = old.indices.map { ($0, $0) }
        } else {
            pairs = matches(old, typed.map(\.text))
        }
        var changes: [CardChange] = []
        let kept = Set(pairs.map(\.old))
        for (index, item) in items.enumerated() where !kept.contains(index) { changes.append(.removeItem(item.id)) }
        for (o, n) in pairs {
            if old[o] != typed[n].text { changes.append(.renameItem(items[o].id, text: typed[n].text)) }
            if items[o].done != typed[n].done { changes.append(.tick(items[o].id, done: typed[n].done)) }
        }
        // New lines go before the kept item that follows them.
        let matchedNew = Dictionary(pairs.map { ($0.new, $0.old) }, uniquingKeysWith: { first, _ in first })
        for index in typed.indices where matchedNew[index] == nil {
            let next = typed.indices.dropFirst(index + 1).first { matchedNew[$0] != nil }
            let before = next.flatMap { matchedNew[$0] }.map { items[$0].id }
            changes.append(.addItem(text: typed[index].text, before: before, done: typed[index].done))
        }
        return changes
    }

    /// The longest run of lines left unchanged (in order), as index pairs.
    private static func matches(_ a: [String], _ b: [String]) -> [(old: Int, new: Int)] {
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var pairs: [(old: Int, new: Int)] = []
        var (i, j) = (0, 0)
        while i < a.count && j < b.count {
            if a[i] == b[j] {
                pairs.append((i, j))
                (i, j) = (i + 1, j + 1)
            } else if table[i + 1][j] >= table[i][j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return pairs
    }
}
