/// How an event reads in `pm history`: the same structured lines pm 0.1
/// recorded (Added, Moved, Removed, the edits), rendered in the reader's
/// language by the command layer.
extension HistoryEvent {
    /// The history entry of `event`; nil for what history does not show (a
    /// migration's baseline, a kind this pm does not know).
    public init?(_ event: Event) {
        guard event.unknownFields[LegacyMigration.baselineKey] == nil else { return nil }
        if case .other(SavedView.kind) = event.kind {
            guard let (name, _) = SavedView.saved(by: event), let filter = event.fields["filter"] else { return nil }
            self = .view(id: event.id, at: event.at, by: event.author, name: name, from: filter.old, to: filter.new)
            (undoes, redoes) = (event.undoes, event.redoes)
            return
        }
        func state(_ value: JSONValue?) -> TaskState? {
            if case .string(let text)? = value { return TaskState(rawValue: text) }
            return nil
        }
        func text(_ value: JSONValue?) -> String? {
            if case .string(let text)? = value { return text }
            return nil
        }
        let title = event.title ?? text(event.fields["title"]?.new) ?? text(event.fields["title"]?.old) ?? ""
        let action: HistoryAction
        var changes: [FieldChange] = []
        switch event.kind {
        case .created, .restored: action = .added
        case .deleted: action = .removed
        case .moved, .edited:
            action = event.kind == .moved ? .moved : .edited
            // pm's own order (title, body, due), then any other field by name.
            let known = ["title", "body", "due"]
            let others = event.fields.keys.filter { !known.contains($0) && $0 != "state" && $0 != "createdAt" }.sorted()
            for name in known + others {
                guard let values = event.fields[name] else { continue }
                var context: String?
                if case .string(let text)? = values.unknownFields[CardField.contextKey] { context = text }
                changes.append(FieldChange(field: name, from: values.old, to: values.new, context: context))
            }
        case .other: return nil
        }
        self.init(
            id: event.id, at: event.at, by: event.author, action: action, taskID: event.task, title: title,
            from: action == .added ? nil : state(event.fields["state"]?.old),
            to: action == .removed ? nil : state(event.fields["state"]?.new), changes: changes)
        undoes = event.undoes
        redoes = event.redoes
    }
}

extension Event {
    /// The complete event for one change a use case made: the task before and
    /// after (nil when it did not exist) and the history entry it recorded.
    /// Creation and deletion carry every content field (so another copy can
    /// rebuild or restore the task); an edit or move carries the fields it
    /// changed, each with its new and replaced value.
    public init(
        change entry: HistoryEvent, before: BoardTask?, after: BoardTask?, replica: TaskID, clock: HybridClock,
        undoes: TaskID? = nil, redoes: TaskID? = nil
    ) {
        var fields: [String: FieldChangeValues] = [:]
        let kind: EventKind
        var seen: Set<TaskID>?
        let compensates = (undoes ?? entry.undoes) != nil || (redoes ?? entry.redoes) != nil
        switch (before, after) {
        case (nil, let task?):
            // An undone deletion or a redone add brings the task back as it
            // is: its fields are context, for a copy that never had it.
            kind = compensates ? .restored : .created
            if compensates { seen = [] }
            fields = LegacyMigration.contentFields(of: task)
        case (let task?, nil):
            kind = .deleted
            for (name, values) in LegacyMigration.contentFields(of: task) {
                fields[name] = FieldChangeValues(new: .null, old: values.new)
            }
            // Everything that keeps the task: what the deletion saw.
            seen = Set(task.live).union(task.heads.values.joined().map(\.event))
        case (let old?, let new?):
            // The change an undo or redo takes back.
            let taken = compensates ? undoes ?? entry.undoes ?? redoes ?? entry.redoes : nil
            let changed = Self.changes(from: old, to: new, entry: entry, taking: taken, compensates: compensates)
            fields = changed.fields
            seen = changed.seen
            kind = fields["state"] == nil ? .edited : .moved
        case (nil, nil):
            kind = .edited
        }
        self.init(
            id: entry.id, replica: replica, author: entry.by, at: entry.at, clock: clock, task: entry.taskID, kind: kind,
            fields: fields, undoes: undoes ?? entry.undoes, redoes: redoes ?? entry.redoes, title: entry.title,
            seen: seen.map { $0.sorted { $0.rawValue < $1.rawValue } })
    }

    /// An edit's or move's fields, each with its new and replaced value, and
    /// the changes its author saw (those it replaces).
    /// - Parameter taken: the change an undo or redo takes back.
    private static func changes(
        from old: BoardTask, to new: BoardTask, entry: HistoryEvent, taking taken: TaskID?, compensates: Bool
    ) -> (fields: [String: FieldChangeValues], seen: Set<TaskID>) {
        var fields: [String: FieldChangeValues] = [:]
        let names = Set(["title", "body", "due", "state"]).union(old.unknownFields.keys).union(new.unknownFields.keys)
            .union((old.assignees + new.assignees).map(Assignees.field))
            .union((old.cardFields + new.cardFields).map(\.name))
        var saw = Set<TaskID>()
        for name in names {
            // An undo or redo replaces only the value it takes back — the
            // change itself while it is still there, beside a
            // colleague's written at the same time; another change
            // replaces every value the author saw.
            let heads = old.heads[name] ?? []
            let takenBack = taken.flatMap { taken in heads.first { $0.event == taken } }
            let shown = LegacyMigration.contentValue(name, of: old)
            let was = takenBack?.value ?? shown
            let now = LegacyMigration.contentValue(name, of: new)
            // A conflict the change picked a value for is named, so every copy resolves it.
            let picked = new.conflicts[name] == nil ? old.conflicts[name] ?? [] : []
            guard was != now || shown != now || !picked.isEmpty else { continue }
            fields[name] = FieldChangeValues(new: now, old: was, conflicts: picked)
            if let context = CardField(name)?.context(in: new) ?? CardField(name)?.context(in: old) {
                fields[name]?.unknownFields[CardField.contextKey] = .string(context)
            }
            if let takenBack {
                saw.insert(takenBack.event)
            } else {
                for head in heads where !compensates || head.value == was { saw.insert(head.event) }
            }
        }
        // A name assigned again (already shown): written all the same,
        // replacing what its author saw, so that an unassignment made
        // concurrently does not take it away (add wins).
        for change in entry.changes
        where change.from == .bool(true) && change.to == .bool(true) && fields[change.field] == nil
            && MergeRule.of(change.field) == .anyTrue
        {
            fields[change.field] = FieldChangeValues(new: .bool(true), old: .bool(true))
            if let context = change.context { fields[change.field]?.unknownFields[CardField.contextKey] = .string(context) }
            for head in old.heads[change.field] ?? [] { saw.insert(head.event) }
        }
        return (fields, saw)
    }
}
