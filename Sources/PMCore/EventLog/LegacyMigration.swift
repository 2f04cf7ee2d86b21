import PMICU

/// Converts a schema-1 board (history inside `board.json`, as pm 0.1 wrote
/// it) into log events (DESIGN.md §4, issue 9):
///
/// - every past event becomes a log event with the same id, author and time,
///   so `pm history` reads the same and undo entries that name it stay valid;
/// - each task's first `created` event carries the task's whole initial
///   content, found by walking its history back from the task as it is now
///   (pm 0.1's "added" events recorded only the title);
/// - whatever a hand-edited or truncated history cannot explain gets one
///   *baseline* event per task (marked, and not shown in history), so the
///   events alone rebuild every task exactly on another copy.
public enum LegacyMigration {
    /// The key that marks a baseline event.
    public static let baselineKey = "migration"

    /// The events that replace `board`'s history.
    /// - Parameters:
    ///   - replica: this copy's replica id, recorded on every event.
    ///   - makeID: ids for baseline events.
    /// - Throws: ``PMError/boardCorrupt(path:line:column:reason:)`` when a past event is malformed.
    public static func events(for board: Board, replica: TaskID, makeID: () -> TaskID) throws -> [Event] {
        let legacy = try board.history.events()
        let initial = initialContents(of: board.tasks, history: legacy)
        var clock: HybridClock?
        var seen = Set<TaskID>()
        var events: [Event] = []
        for old in legacy {
            let ms = Int64(Timestamp.milliseconds(of: old.at) ?? 0)
            let tick = HybridClock.tick(after: clock, now: min(max(ms, 0), HybridClock.maximumMilliseconds))
            clock = tick
            var event = convert(old, replica: replica, clock: tick)
            if old.action == .added, seen.insert(old.taskID).inserted, let start = initial[old.taskID] {
                // What the event recorded (title, column) stands; the rest of
                // the task's first content is what its history implies.
                for (name, values) in contentFields(of: start) where event.fields[name] == nil {
                    event.fields[name] = values
                }
            }
            events.append(event)
        }
        var folded = FoldedTasks()
        folded.apply(events)
        for task in board.tasks where !(folded.byID[task.id]?.sameContent(as: task) ?? false) {
            let before = folded.byID[task.id]
            let ms = Int64(Timestamp.milliseconds(of: task.updatedAt) ?? 0)
            clock = HybridClock.tick(after: clock, now: min(max(ms, 0), HybridClock.maximumMilliseconds))
            var fields = contentFields(of: task)
            for name in fields.keys { fields[name]?.old = before.map { contentValue(name, of: $0) } ?? .null }
            events.append(
                Event(
                    id: makeID(), replica: replica, author: "pm", at: task.updatedAt,
                    clock: clock ?? HybridClock(milliseconds: 0),
                    task: task.id, kind: before == nil ? .restored : .edited, fields: fields, title: task.title,
                    unknownFields: [baselineKey: .string("baseline")]))
        }
        let current = Set(board.tasks.map(\.id))
        for (id, task) in folded.byID.sorted(by: { $0.key < $1.key }) where !current.contains(id) {
            events.append(
                Event(
                    id: makeID(), replica: replica, author: "pm", at: task.updatedAt,
                    clock: HybridClock.tick(after: clock, now: clock?.milliseconds ?? 0), task: id, kind: .deleted,
                    title: task.title, unknownFields: [baselineKey: .string("baseline")]))
        }
        return events.map(admissible)
    }

    /// `event` as every copy admits it (``EventProblem``): a schema-1 board
    /// could hold a title of nothing, a title or body past the limits, an
    /// author with control characters. Such a title becomes "…", a text past
    /// its limit is cut there with "…", an author's controls are written as
    /// pm shows them (`\u{1B}`); the same text the same way wherever it
    /// appears, so the events still fold to what they recorded. Converted as
    /// it was, one copy kept a card every other copy refused (issue 43).
    /// (Control characters in titles and bodies are kept: every copy takes
    /// them from a file, and shows them escaped.)
    static func admissible(_ event: Event) -> Event {
        var event = event
        func text(_ value: JSONValue, limit: Int, body: Bool) -> JSONValue {
            guard case .string(let text) = value else { return value }
            return .string(admissible(text, limit: limit, body: body))
        }
        for name in ["title", "body"] {
            guard var values = event.fields[name] else { continue }
            let (limit, body) = name == "title" ? (TaskInput.titleLimit, false) : (TaskInput.bodyLimit, true)
            values.new = text(values.new, limit: limit, body: body)
            values.old = text(values.old, limit: limit, body: body)
            values.conflicts = values.conflicts.map { text($0, limit: limit, body: body) }
            event.fields[name] = values
        }
        event.author = admissible(TextSafety.escaped(event.author), limit: TaskInput.titleLimit, body: true)
        return event
    }

    /// A text as ``admissible(_:)`` writes it.
    private static func admissible(_ text: String, limit: Int, body: Bool) -> String {
        var result = text
        if !body, !result.unicodeScalars.contains(where: TaskInput.isVisible) { result = "…" }
        if result.count > limit { result = String(result.prefix(limit - 1)) + "…" }
        return result
    }

    /// Whether converting `board` changes any of its text (``admissible(_:)``):
    /// the schema-1 file is then kept beside the board as it was.
    public static func cutsText(of board: Board) throws -> Bool {
        let history = try board.history.events()
        return board.tasks.contains { task in
            task.title.count > TaskInput.titleLimit || !task.title.unicodeScalars.contains(where: TaskInput.isVisible)
                || task.body.count > TaskInput.bodyLimit
        }
            || history.contains { entry in
                entry.title.count > TaskInput.titleLimit || entry.by.count > TaskInput.titleLimit
                    || entry.by.unicodeScalars.contains(where: TextSafety.isUnsafe)
                    || entry.changes.contains { change in
                        [change.from, change.to].contains { value in
                            guard case .string(let text) = value else { return false }
                            return text.count > TaskInput.bodyLimit
                        }
                    }
            }
    }

    /// A past event as a log event, field values as recorded.
    static func convert(_ old: HistoryEvent, replica: TaskID, clock: HybridClock) -> Event {
        var fields: [String: FieldChangeValues] = [:]
        for change in old.changes { fields[change.field] = FieldChangeValues(new: change.to, old: change.from) }
        let kind: EventKind
        switch old.action {
        case .added:
            kind = .created
            fields["title"] = FieldChangeValues(new: .string(old.title), old: .null)
            fields["state"] = FieldChangeValues(new: .string((old.to ?? .todo).rawValue), old: .null)
        case .removed:
            kind = .deleted
            fields["title"] = FieldChangeValues(new: .null, old: .string(old.title))
            fields["state"] = FieldChangeValues(new: .null, old: .string((old.from ?? .todo).rawValue))
        case .moved:
            kind = .moved
            fields["state"] = FieldChangeValues(
                new: .string((old.to ?? .todo).rawValue), old: .string((old.from ?? .todo).rawValue))
        case .edited, .view:  // (a board file's history has no views: its decoder refuses them)
            kind = .edited
        }
        // Marked: its author is whoever made the change then, not this copy's person.
        return Event(
            id: old.id, replica: replica, author: old.by, at: old.at, clock: clock, task: old.taskID, kind: kind, fields: fields,
            title: old.title, unknownFields: [ReplicaLedger.convertedKey: .bool(true)])
    }

    /// Each existing task's content when it was first added: the task as it
    /// is now, with every later recorded change taken back.
    static func initialContents(of tasks: [BoardTask], history: [HistoryEvent]) -> [TaskID: BoardTask] {
        var byTask: [TaskID: [HistoryEvent]] = [:]
        for event in history { byTask[event.taskID, default: []].append(event) }
        var result: [TaskID: BoardTask] = [:]
        for task in tasks {
            guard let events = byTask[task.id], events.first?.action == .added else { continue }
            var content = task
            for event in events.dropFirst().reversed() {
                for change in event.changes.reversed() { set(change.field, to: change.from, on: &content) }
                if event.action == .moved, let from = event.from { content.state = from }
            }
            content.updatedAt = events[0].at
            result[task.id] = content
        }
        return result
    }

    /// Every content field of a task as a change from nothing.
    /// The fields pm writes and knows on every task (assignees aside).
    static let contentNames = ["title", "body", "due", "state", "createdAt"]

    /// Whether pm knows what the field holds: a content field or a name.
    static func isContentField(_ name: String) -> Bool {
        contentNames.contains(name) || CardField(name) != nil
    }

    /// A task's fields as an event that makes or unmakes it carries them,
    /// within what every copy admits (``EventProblem/fieldLimit``,
    /// ``EventProblem/extraValueLimit``): a task that gathered more names or
    /// a newer pm's fields than one event may carry, one small event after
    /// another, keeps the first of them in name order.
    static func contentFields(of task: BoardTask) -> [String: FieldChangeValues] {
        var fields: [String: FieldChangeValues] = [:]
        for name in contentNames {
            fields[name] = FieldChangeValues(new: contentValue(name, of: task), old: .null)
        }
        for name in task.assignees.prefix(Assignees.eventLimit) {
            fields[Assignees.field(name)] = FieldChangeValues(new: .bool(true), old: .null)
        }
        for field in task.cardFields {
            fields[field.name] = FieldChangeValues(new: task.value(of: field), old: .null)
        }
        var extraValues = 0
        for name in task.unknownFields.keys.sorted() where fields.count < EventProblem.fieldLimit {
            guard let value = task.unknownFields[name] else { continue }
            // Counted twice: a deletion carries it as the old value.
            extraValues += 2 * value.valueCount
            guard extraValues <= EventProblem.extraValueLimit else { break }
            fields[name] = FieldChangeValues(new: value, old: .null)
        }
        return fields
    }

    static func contentValue(_ name: String, of task: BoardTask) -> JSONValue {
        switch name {
        case "title": return .string(task.title)
        case "body": return .string(task.body)
        case "due": return task.due.map { .string($0.description) } ?? .null
        case "state": return .string(task.state.rawValue)
        case "createdAt": return .string(task.createdAt)
        default:
            if let field = CardField(name) { return task.value(of: field) }
            return task.unknownFields[name] ?? .null
        }
    }

    private static func set(_ field: String, to value: JSONValue, on task: inout BoardTask) {
        FoldedTasks.set([field: FieldChangeValues(new: value, old: .null)], on: &task)
    }
}
