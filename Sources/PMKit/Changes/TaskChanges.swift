import PMCore
import PMICU

/// A task as a front end names it: as typed (`pm move 3f done`: an id or
/// its unique start) or as it already holds it (a card on the board).
public enum TaskRef: Sendable, Equatable {
    case typed(String)
    case id(TaskID)

    func find(in board: Board) throws -> TaskID {
        switch self {
        case .typed(let text): return try TaskLookup.find(text, in: board).id
        case .id(let id): return id
        }
    }
}

/// A name new to the board that reads like one already on it (`\u{430}lice`
/// beside `alice`): the card would not show in that person's `--mine`.
public struct Lookalike: Sendable, Equatable {
    public var name: String
    public var like: String
}

/// The use cases that change tasks (DESIGN.md §3), each one undo step.
extension BoardSession {
    /// What `add` made.
    public struct Added: Sendable {
        public var task: BoardTask
        /// The shortest start of its id that names it on the board.
        public var shortID: String
        public var lookalikes: [Lookalike]
    }

    /// Adds a task to TODO.
    /// - Parameter recur: its deadline recurs by this rule; without a
    ///   deadline, the rule's first date from today on is its deadline.
    public func add(
        title: String, body: String = "", due: CivilDate? = nil, dueTime: DueTime? = nil, assignees: [String] = [],
        labels: [String] = [], priority: Priority? = nil, recur: Recurrence? = nil, until: CivilDate? = nil
    ) throws -> Added {
        let env = environment
        let id = env.makeID()
        let due = due ?? recur.flatMap { Self.firstDate(of: $0, today: env.today) }
        return try change { board in
            let lookalikes = Self.lookalikes(of: assignees, on: board)
            let task = try board.add(
                title: title, body: body, due: due, dueTime: dueTime, assignees: assignees, labels: labels, priority: priority,
                recur: recur, until: until, id: id, eventID: env.makeID(), by: env.user, at: now)
            return Added(task: task, shortID: TaskLookup.shortID(of: task.id, among: board.tasks), lookalikes: lookalikes)
        }
    }

    /// What an edit, an assignment or a choice made: the task, and the
    /// history entry it wrote (nil: it changed nothing).
    public struct Edited: Sendable {
        public var task: BoardTask
        public var made: HistoryEvent?
        public var lookalikes: [Lookalike] = []
    }

    /// Changes a task's title, body or deadline (only the fields given).
    public func edit(_ ref: TaskRef, _ edit: Board.Edit) throws -> Edited {
        try change { board in try edited(try ref.find(in: board), edit, in: &board) }
    }

    private func edited(_ id: TaskID, _ edit: Board.Edit, in board: inout Board) throws -> Edited {
        let known = board.history.appended.count
        let task = try board.edit(id, edit, eventID: environment.makeID(), by: environment.user, at: now)
        return Edited(task: task, made: board.history.appended.count > known ? board.history.appended.last : nil)
    }

    /// What a move did: the task before and after (the same column: it was
    /// already there), and the next occurrence a recurring task done made.
    public struct Moved: Sendable {
        public var before: BoardTask
        public var after: BoardTask
        public var next: BoardTask?
    }

    /// Moves a task to `target`. A recurring task done makes its next
    /// occurrence, in the same undo step.
    public func move(_ ref: TaskRef, to target: TaskState) throws -> Moved {
        let env = environment
        return try change(oneStep: true) { board in
            let (before, after, next) = try board.move(
                try ref.find(in: board), to: target, today: env.today, eventID: env.makeID(), nextEventID: env.makeID(),
                by: env.user, at: now)
            return Moved(before: before, after: after, next: next)
        }
    }

    /// A rule's first date from `today` on: the deadline of a series begun today.
    static func firstDate(of rule: Recurrence, today: CivilDate) -> CivilDate? {
        rule.occurrence(after: today.adding(days: -1) ?? today, start: today)
    }

    /// Sets (or with nil ends) a task's recurring deadline; a task with no
    /// deadline gets the rule's first date from today on (one undo step).
    /// - Parameter until: the series' last day (nil: the one it has, if any).
    public func setRecurrence(_ ref: TaskRef, _ rule: Recurrence?, until: CivilDate? = nil) throws -> Edited {
        let env = environment
        return try change(oneStep: true) { board in
            let id = try ref.find(in: board)
            let known = board.history.appended.count
            if let rule, board.task(id)?.due == nil, let due = Self.firstDate(of: rule, today: env.today) {
                try board.edit(id, Board.Edit(due: .some(due)), eventID: env.makeID(), by: env.user, at: now)
            }
            let (_, after) = try board.setRecurrence(id, rule, until: until, eventID: env.makeID(), by: env.user, at: now)
            return Edited(task: after, made: board.history.appended.count > known ? board.history.appended.last : nil)
        }
    }

    /// Deletes a task; returns it as it was.
    public func delete(_ ref: TaskRef) throws -> BoardTask {
        let env = environment
        return try change { board in
            try board.delete(try ref.find(in: board), eventID: env.makeID(), by: env.user, at: now)
        }
    }

    /// Assigns and unassigns people.
    public func assign(_ ref: TaskRef, adding: [String] = [], removing: [String] = []) throws -> Edited {
        try change { board in
            let lookalikes = Self.lookalikes(of: adding, on: board)
            var result = try assigned(try ref.find(in: board), adding: adding, removing: removing, in: &board)
            result.lookalikes = lookalikes
            return result
        }
    }

    /// Changes a card's labels, priority, checklist or comments (one undo step).
    public func change(_ ref: TaskRef, _ card: CardChange) throws -> Edited {
        let env = environment
        return try change { board in
            let known = board.history.appended.count
            let (_, after) = try board.change(try ref.find(in: board), card, eventID: env.makeID(), by: env.user, at: now)
            return Edited(task: after, made: board.history.appended.count > known ? board.history.appended.last : nil)
        }
    }

    /// Makes several changes to a card's parts as one undo step (the board's
    /// form); nil when they changed nothing. A change to an item someone
    /// removed meanwhile is passed over (their removal stands).
    public func change(_ ref: TaskRef, _ changes: [CardChange]) throws -> Edited? {
        guard !changes.isEmpty else { return nil }
        let env = environment
        return try change(oneStep: true) { board in
            let id = try ref.find(in: board)
            let known = board.history.appended.count
            for card in changes {
                do {
                    try board.change(id, card, eventID: env.makeID(), by: env.user, at: now)
                } catch PMError.partNotFound(.items, _) {
                    continue
                }
            }
            guard let task = board.task(id), board.history.appended.count > known else { return nil }
            return Edited(task: task, made: board.history.appended.last)
        }
    }

    /// Assigns the task to the person using this session (`pm take`).
    public func take(_ ref: TaskRef) throws -> Edited {
        try assign(ref, adding: [try Assignees.validName(environment.user)])
    }

    private func assigned(_ id: TaskID, adding: [String], removing: [String], in board: inout Board) throws -> Edited {
        let known = board.history.appended.count
        let (_, after) = try board.assign(
            id, adding: adding, removing: removing, eventID: environment.makeID(), by: environment.user, at: now)
        return Edited(task: after, made: board.history.appended.count > known ? board.history.appended.last : nil)
    }

    /// What keeping one value of a field in conflict did.
    public enum Resolved: Sendable {
        /// The column was chosen (a move).
        case column(BoardTask)
        /// A title, body or deadline was chosen (an edit).
        case field(Edited)
        /// Nothing: the value is not one this field can hold.
        case nothing
    }

    /// Keeps one value of a field in conflict, as `pm edit` (or `pm move`
    /// for the column) would: every copy then agrees on it.
    public func resolve(_ id: TaskID, field: String, value: JSONValue) throws -> Resolved {
        if field == "state" {
            guard case .string(let raw) = value, let state = TaskState(rawValue: raw) else { return .nothing }
            return .column(try move(.id(id), to: state).after)
        }
        var change = Board.Edit()
        switch (field, value) {
        case ("title", .string(let text)): change.title = text
        case ("body", .string(let text)): change.body = text
        case ("due", .string(let text)): change.due = .some(CivilDate(iso: text))
        case ("due", _): change.due = .some(nil)
        default: return .nothing
        }
        return .field(try edit(.id(id), change))
    }

    /// The names in `names` new to `board` that read like one on it.
    /// No name, nothing to compare: the board's tasks stay unread (an add
    /// without assignees reads no task through the index: 55 to 6 ms at 10k).
    static func lookalikes(of names: [String], on board: Board) -> [Lookalike] {
        guard !names.isEmpty else { return [] }
        return ICUConfusables.lookalikes(of: names, among: Set(board.tasks.flatMap(\.assignees))).map {
            Lookalike(name: $0.name, like: $0.like)
        }
    }
}
