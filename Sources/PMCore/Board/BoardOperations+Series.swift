/// Recurring deadlines (issue 48, DESIGN.md §18): a card's rule, and the
/// next occurrence made when one is done.
extension Board {
    /// Sets the rule of task `id`'s recurring deadline (nil ends the
    /// series), counted from its deadline; the series stays the one it is
    /// in, so the occurrences already made and those to come are one series.
    /// - Returns: the task before and after.
    @discardableResult
    /// - Parameter until: the series' last day (nil: the one it has, if any).
    public mutating func setRecurrence(
        _ id: TaskID, _ rule: Recurrence?, until: CivilDate? = nil, eventID: TaskID, by user: String, at time: String
    ) throws -> (before: BoardTask, after: BoardTask) {
        guard let task = task(id) else { throw PMError.taskNotFound(id.rawValue) }
        let series = rule.map { rule in
            Series(
                rule: rule, series: task.recur?.series ?? id, start: task.due ?? task.recur?.start ?? .first,
                until: until ?? task.recur?.until)
        }
        return try change(id, .recur(series), eventID: eventID, by: user, at: time)
    }

    /// Moves a task as ``move(_:to:eventID:by:at:)`` does; one that recurs,
    /// moved to DONE from another column (or out of a conflict over its
    /// column), makes its next occurrence (``makeNextOccurrence(after:today:eventID:by:at:)``).
    /// - Returns: the task before and after, and the occurrence made.
    public mutating func move(
        _ id: TaskID, to state: TaskState, today: CivilDate, eventID: TaskID, nextEventID: TaskID, by user: String,
        at time: String
    ) throws -> (before: BoardTask, after: BoardTask, next: BoardTask?) {
        let (before, after) = try move(id, to: state, eventID: eventID, by: user, at: time)
        guard after.state == .done, before.state != .done || before.conflicts["state"] != nil else {
            return (before, after, nil)
        }
        return (before, after, makeNextOccurrence(after: id, today: today, eventID: nextEventID, by: user, at: time))
    }

    /// Makes the occurrence that follows task `id`, which was just done,
    /// when it recurs: in TODO, with the next deadline (``Series/next(after:today:)``),
    /// the title, body, assignees, labels, priority and checklist (unticked)
    /// of the one done, and no comments. Its id is derived from the one
    /// done (``Series/nextID(after:)``), so it is made once however many
    /// copies do this.
    /// - Returns: the occurrence made; nil when the task does not recur, is
    ///   not done, its next occurrence exists already, or the calendar ends.
    @discardableResult
    public mutating func makeNextOccurrence(
        after id: TaskID, today: CivilDate, eventID: TaskID, by user: String, at time: String
    ) -> BoardTask? {
        guard let done = task(id), done.state == .done, let series = done.recur else { return nil }
        let nextID = Series.nextID(after: id)
        guard task(nextID) == nil, let due = series.next(after: done.due, today: today) else { return nil }
        var next = BoardTask(id: nextID, title: done.title, body: done.body, due: due, createdAt: time, updatedAt: time)
        next.assignees = done.assignees
        next.labels = done.labels
        next.priority = done.priority
        // The same time of day, in the same zone, on the next date.
        next.dueTime = done.dueTime
        next.allItems = done.allItems.filter(\.isShown).map { ChecklistItem(id: $0.id, text: $0.text, position: $0.position) }
        next.recur = series
        tasks.append(next)
        history.append(
            HistoryEvent(id: eventID, at: time, by: user, action: .added, taskID: nextID, title: next.title, to: .todo),
            before: nil)
        return next
    }
}
