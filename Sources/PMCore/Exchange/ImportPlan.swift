/// What an import would do to a board: the cards it adds, with their ids,
/// and those already there (imported before, or a CSV row that is one of
/// this board's tasks).
public struct ImportPlan: Sendable {
    public var adding: [(card: ImportedCard, id: TaskID)] = []
    public var alreadyThere = 0

    /// Plans `reading` from `source` into `board`.
    public init(_ reading: ImportReading, source: ImportSource, board: Board) {
        var present = Set(board.tasks.lazy.map(\.id))
        for card in reading.cards {
            let id = ImportRules.taskID(board: board.id, source: source, sourceID: card.sourceID)
            // pm's own CSV names its tasks by their ids: exported and imported back, they are there.
            if present.contains(id) || (source == .csv && TaskID(card.sourceID).map(present.contains) == true) {
                alreadyThere += 1
            } else {
                adding.append((card, id))
                present.insert(id)
            }
        }
    }
}

extension Board {
    /// Adds an imported card as a task in its column, made when its source
    /// says (`createdAt`), so that creation order is the source's, with its
    /// labels, priority, checklist and comments.
    /// - Returns: the new task.
    @discardableResult
    public mutating func addImported(
        _ card: ImportedCard, id: TaskID, createdAt: String, eventID: TaskID, by user: String, at time: String
    ) throws -> BoardTask {
        var task = BoardTask(
            id: id, title: try TaskInput.validTitle(card.title), body: try TaskInput.validBody(card.body), state: card.state,
            due: card.due, createdAt: createdAt, updatedAt: time)
        if !card.assignees.isEmpty { task.assignees = try card.assignees.map(Assignees.validName) }
        if card.due != nil { task.dueTime = card.dueTime }
        Self.setImportedParts(of: card, on: &task)
        if let recur = card.recur {
            // One series on every copy and at every import: named by the board and the source's series.
            let series = TaskID.named(Array("pm-import-series\u{0}\(self.id.rawValue)\u{0}\(recur.series)".utf8))
            task.recur = Series(rule: recur.rule, series: series, start: card.due ?? .first, until: recur.until)
        }
        tasks.append(task)
        history.append(
            HistoryEvent(id: eventID, at: time, by: user, action: .added, taskID: id, title: task.title, to: card.state),
            before: nil)
        return task
    }
}
