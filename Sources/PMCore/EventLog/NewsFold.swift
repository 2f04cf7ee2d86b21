/// What others' changes amount to, for a reader of `pm news` (DESIGN.md
/// §13; issue 44, item 6): a change and the undo that took it back are
/// nothing to read; an import is one line, not a card each.
public enum NewsFold {
    /// The changes that remain once every change taken back (or put back)
    /// inside `entries` is folded with what took it back.
    ///
    /// Each change, its undo, the redo of that undo… form a chain (each
    /// names the one before: ``HistoryEvent/undoes``, ``HistoryEvent/redoes``).
    /// A chain of even length, read whole, changed nothing; one of odd
    /// length did what its last event did. When the chain's first change
    /// is among `entries`, that last event is said as a plain change (a
    /// redo of an add the reader never saw is an add).
    ///
    /// - Parameter entries: newest first, as news reads.
    /// - Returns: the changes to say, newest first, and those that cancel out.
    public static func fold(_ entries: [HistoryEvent]) -> (kept: [HistoryEvent], cancelled: [HistoryEvent]) {
        var index: [TaskID: Int] = [:]
        for (position, entry) in entries.enumerated() where index[entry.id] == nil { index[entry.id] = position }
        // The event that takes back (or puts back) each one, within entries.
        var next: [Int: Int] = [:]
        var hasPrevious = Set<Int>()
        for (position, entry) in entries.enumerated() {
            guard let previous = (entry.undoes ?? entry.redoes).flatMap({ index[$0] }), previous != position,
                next[previous] == nil
            else { continue }
            next[previous] = position
            hasPrevious.insert(position)
        }
        var keep: [Int: HistoryEvent] = [:]
        var cancelled: [HistoryEvent] = []
        var seen = Set<Int>()
        for head in entries.indices where !hasPrevious.contains(head) {
            var chain: [Int] = []
            var position: Int? = head
            // A hostile log may link events in a loop: each is read once.
            while let current = position, seen.insert(current).inserted {
                chain.append(current)
                position = next[current]
            }
            guard let last = chain.last else { continue }
            if chain.count % 2 == 0 {
                cancelled += chain.map { entries[$0] }
                continue
            }
            cancelled += chain.dropLast().map { entries[$0] }
            var said = entries[last]
            let headIsAChange = entries[head].undoes == nil && entries[head].redoes == nil
            if chain.count > 1 && headIsAChange { (said.undoes, said.redoes) = (nil, nil) }
            keep[last] = said
        }
        // Events in a loop with no head: nothing they say can be trusted to net out; say them.
        for position in entries.indices where !seen.contains(position) { keep[position] = entries[position] }
        return (entries.indices.compactMap { keep[$0] }, cancelled)
    }

    /// What a step of several imported tasks did, said as one line.
    public enum ImportKind: Sendable {
        /// The tasks were imported.
        case imported
        /// An import the reader saw was taken back.
        case undone
        /// An import the reader saw taken back was put back.
        case redone
    }

    /// One step of an import: its tasks' entries (at least two).
    public struct ImportStep: Sendable {
        public var kind: ImportKind
        public var entries: [HistoryEvent]
    }

    /// The imports among `kept` (``fold(_:)``'s): two or more tasks whose
    /// ids an import made (``ImportRules/isImportedID(_:)``), added — or
    /// taken back, or put back — by one person at one moment.
    /// - Returns: the steps, and the entries that belong to none, both newest first.
    public static func imports(_ kept: [HistoryEvent]) -> (steps: [ImportStep], rest: [HistoryEvent]) {
        struct Key: Hashable {
            var by: String
            var copyOf: String?
            var at: String
            var kind: Int
        }
        func kind(_ entry: HistoryEvent) -> ImportKind? {
            guard ImportRules.isImportedID(entry.taskID) else { return nil }
            switch (entry.action, entry.undoes != nil, entry.redoes != nil) {
            case (.added, false, false): return .imported
            case (.removed, true, false): return .undone
            case (.added, false, true): return .redone
            default: return nil
            }
        }
        var groups: [Key: [Int]] = [:]
        for (position, entry) in kept.enumerated() {
            guard let found = kind(entry) else { continue }
            let key = Key(
                by: entry.by, copyOf: entry.copyOf, at: entry.at,
                kind: found == .imported ? 0 : found == .undone ? 1 : 2)
            groups[key, default: []].append(position)
        }
        var inStep = Set<Int>()
        var steps: [(first: Int, step: ImportStep)] = []
        for (key, positions) in groups where positions.count >= 2 {
            inStep.formUnion(positions)
            let kind: ImportKind = key.kind == 0 ? .imported : key.kind == 1 ? .undone : .redone
            steps.append((positions[0], ImportStep(kind: kind, entries: positions.map { kept[$0] })))
        }
        let rest = kept.indices.filter { !inStep.contains($0) }.map { kept[$0] }
        return (steps.sorted { $0.first < $1.first }.map(\.step), rest)
    }
}
