import PMCore
import PMICU

/// Text a reader types to find a task (`pm list --grep`, the board's `/`):
/// the reader's collation at the primary level, case and accents ignored.
public struct TextMatch {
    private let collator: ICUCollator?

    public init(locale: String) {
        collator = ICUCollator.ignoringCaseAndAccents(locale: locale)
    }

    /// Whether `text` is in the task's title or body.
    public func finds(_ text: String, in task: BoardTask) -> Bool {
        if let collator { return collator.contains(text, in: task.title) || collator.contains(text, in: task.body) }
        // No collator from ICU: still filter, ignoring case only.
        let needle = text.lowercased()
        return task.title.lowercased().contains(needle) || task.body.lowercased().contains(needle)
    }
}

/// The board as a front end shows it: what it reads, never changes.
extension BoardSession {
    /// The board and the tasks a view shows.
    public struct Snapshot {
        /// With `shownOnly`, its tasks hold what a list shows of them (title,
        /// column, deadline, creation time, assignees, labels, priority,
        /// checklist progress, conflicts) without reading the board file;
        /// anything else of a task is read from it when asked for.
        public var board: Board
        /// The tasks `filter` and the text admit, in the board's order.
        public var tasks: [BoardTask]
        /// What undo and redo can do, when asked for (`withUndo`): with
        /// `shownOnly`, found while a task read from the file is still
        /// checked against its summary.
        public var undo: UndoAvailability?
    }

    /// The board, and the tasks that `filter` admits and that hold `text`
    /// (in the reader's `locale`'s collation).
    public func snapshot(filter: TaskFilter = TaskFilter(), text: String? = nil, locale: String) throws -> Snapshot {
        try snapshot(filters: [filter], texts: text.map { [$0] } ?? [], locale: locale)
    }

    /// The board and the tasks every filter admits and every text is found in
    /// (a saved view's and the options typed beside it).
    /// - Parameter shownOnly: the caller shows of each task only what a
    ///   list shows (``Snapshot/shownOnly``): the board is then read through
    ///   its index while that still describes the file, and no task is read
    ///   from the file but those the log's tail changed (on a board of cards
    ///   that carry checklists and comments, most of the file is theirs).
    ///   A text to look for reads the board whole.
    /// - Parameter withUndo: also say what undo and redo can do.
    public func snapshot(
        filters: [TaskFilter], texts: [String], locale: String, shownOnly: Bool = false, withUndo: Bool = false
    ) throws -> Snapshot {
        func filtered(_ board: Board) -> Snapshot {
            let today = environment.today
            var tasks = board.tasks
            for filter in filters where !filter.isEmpty {
                tasks = tasks.filter { filter.admits($0, today: today, now: environment.now()) }
            }
            if !texts.isEmpty {
                let match = TextMatch(locale: locale)
                for text in texts { tasks = tasks.filter { match.finds(text, in: $0) } }
            }
            return Snapshot(board: board, tasks: tasks, undo: withUndo ? undoAvailability(on: board) : nil)
        }
        // A text is looked for in the bodies too: every task read from the
        // file one by one would cost more than the file read whole.
        guard shownOnly, texts.isEmpty else { return filtered(try loadBoard()) }
        // Filtered where a task read from the file is checked against its
        // summary: one that is not what the index said is read again, whole.
        return try store().withFewTasks { board in
            guard let board else { return filtered(emptyBoard()) }
            UntilExit.keep(board)
            return filtered(board)
        }
    }

    /// How many changes by others wait for `pm news` since the reader last
    /// looked (whole: all of them were counted); nil when none, or never
    /// looked. Reads only what arrived since, and at most 4 MiB of it. The
    /// copies the board leaves out (``ReplicaLedger``) are no news either.
    public func newsWaiting(on board: Board) -> (count: Int, whole: Bool)? {
        let passedBy = ownReplicas.union(board.log.replicas?.setAside ?? [])
        guard let mark = try? NewsMark.load(newsMarkPath(boardID: board.id)), let log = try? store().eventLog(),
            let waiting = try? log.othersWaiting(since: mark, mine: passedBy, limit: 4 << 20), waiting.count > 0
        else { return nil }
        return waiting
    }

    /// The history, newest first (`task`: only that task's, by id or its start).
    public func history(limit: Int, task: String? = nil) throws -> [HistoryEvent] {
        try store().recentHistory(limit: limit, task: task)
    }
}

/// What others changed, for a front end's marks (DESIGN.md §13).
extension BoardSession {
    /// The cards others changed since the reader last looked (`pm news`);
    /// none before a first look. Reads only what arrived since.
    public func changedByOthers(on board: Board) -> Set<TaskID> {
        guard let mark = try? NewsMark.load(newsMarkPath(boardID: board.id)),
            let news = try? store().eventLog().news(
                since: mark, mine: ownReplicas, newest: 0, current: NewsMark(events: 0, length: 0)),
            news.sinceMark
        else { return [] }
        return Set(news.events.map(\.task))
    }

    /// Marks everything on `board` as seen, as `pm news` does once it has shown it.
    public func markNewsSeen(on board: Board) throws {
        try NewsMark(events: board.log.events, length: board.log.length).save(newsMarkPath(boardID: board.id))
    }
}
