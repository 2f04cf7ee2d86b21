import FoundationEssentials

/// When a card is overdue, and the board's reading order by deadline.
extension BoardTask {
    /// Overdue: not done, and the deadline is before `today` (the viewer's date).
    /// A deadline of today is not overdue.
    /// A deadline with a time is overdue once that instant has passed, when
    /// `now` is given; without it, once its day is before `today`.
    public func isOverdue(today: CivilDate, now: Date? = nil) -> Bool {
        guard state != .done, let due else { return false }
        if let now, let time = dueTime { return Int64(now.timeIntervalSince1970.rounded(.down)) >= time.instant(on: due) }
        return due < today
    }

    /// The board's reading order, in `pm list` and `pm board` alike: by
    /// deadline (none last), then by creation, then by id.
    public static func byDeadline(_ tasks: [BoardTask]) -> [BoardTask] {
        // Indices sorted on keys computed once: moving whole tasks and
        // re-reading their fields at every comparison cost more than the rest.
        let days = tasks.map { $0.deadline.map { Int($0.sortKey) } ?? Int.max }
        let created = tasks.map(\.createdAt)
        // The creation times' first 24 bytes as integers, in the order of
        // their text: compared without walking Strings, which only break a tie.
        let keys = created.map(TextOrderKey.init)
        var indices = Array(tasks.indices)
        indices.sort { a, b in
            if days[a] != days[b] { return days[a] < days[b] }
            if let x = keys[a], let y = keys[b], x != y { return x < y }
            return created[a] != created[b] ? created[a] < created[b] : tasks[a].id < tasks[b].id
        }
        return indices.map { tasks[$0] }
    }
}
