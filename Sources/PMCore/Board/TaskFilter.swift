import FoundationEssentials

/// Which tasks a view shows (DESIGN.md §13), the same in `pm list`, its
/// `--json`, `pm export ics` and `pm board`. People (`--mine`, `--to`,
/// `--unassigned`) are alternatives: a task passes when it is any one's;
/// the rest (deadline, text) must all hold.
public struct TaskFilter: Equatable, Sendable {
    /// Names a task may be assigned to (`--to`, and the reader's for `--mine`).
    public var names: Set<String> = []
    /// Tasks nobody is assigned to pass too.
    public var unassigned = false
    /// Only tasks past their deadline and not done.
    public var overdue = false
    /// Only tasks due strictly before this day.
    public var dueBefore: CivilDate?
    /// Only tasks due strictly after this day.
    public var dueAfter: CivilDate?
    /// Only tasks that carry every one of these labels.
    public var labels: Set<String> = []
    /// Only tasks of one of these priorities (nil: none); empty lets every one through.
    public var priorities: Set<Priority?> = []

    public init(
        names: Set<String> = [], unassigned: Bool = false, overdue: Bool = false, dueBefore: CivilDate? = nil,
        dueAfter: CivilDate? = nil
    ) {
        self.names = names
        self.unassigned = unassigned
        self.overdue = overdue
        self.dueBefore = dueBefore
        self.dueAfter = dueAfter
    }

    /// The tasks a person is reminded of (DESIGN.md §13): theirs and those
    /// nobody has taken. A name nobody could be assigned by has only the latter.
    public static func remindersFor(_ user: String) -> TaskFilter {
        TaskFilter(names: (try? Assignees.validName(user)).map { [$0] } ?? [], unassigned: true)
    }

    /// Whether the filter lets every task through.
    public var isEmpty: Bool { self == TaskFilter() }

    /// Whether `task` passes on `today` (the reader's calendar day); `now`,
    /// for a deadline with a time, which is overdue once it has passed.
    public func admits(_ task: BoardTask, today: CivilDate, now: Date? = nil) -> Bool {
        if !names.isEmpty || unassigned {
            let assignees = task.assignees
            let byPerson = assignees.contains { names.contains($0) } || (unassigned && assignees.isEmpty)
            guard byPerson else { return false }
        }
        if overdue, !task.isOverdue(today: today, now: now) { return false }
        if !labels.isEmpty {
            let carried = task.labels
            guard labels.allSatisfy({ Assignees.place(of: $0, in: carried).found }) else { return false }
        }
        if !priorities.isEmpty, !priorities.contains(task.priority) { return false }
        if dueBefore != nil || dueAfter != nil {
            guard let due = task.due else { return false }
            if let dueBefore, !(due < dueBefore) { return false }
            if let dueAfter, !(dueAfter < due) { return false }
        }
        return true
    }
}
