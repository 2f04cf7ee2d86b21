import PMICU

/// A team's saved views (DESIGN.md §17): named filters stored with the
/// board, so that everyone who shares it has them.
///
/// A view is saved, replaced or deleted by an event of its own kind,
/// `view`, naming the view (`name`) and its filter (`filter`: an object, or
/// null for a deletion). Views merge by name: of the changes to one name,
/// the latest in merge order stands, on every copy (a view is a setting,
/// not work: nothing to keep as a conflict). An older pm keeps these
/// events in its log and passes them by, as any kind it does not know.
public struct SavedView: Equatable, Sendable {
    public var name: String
    /// The filter, language-neutral (``ViewFilter``).
    public var filter: ViewFilter
    /// Who saved it last, and when (ISO 8601 UTC).
    public var by: String
    public var at: String

    public init(name: String, filter: ViewFilter, by: String, at: String) {
        self.name = name
        self.filter = filter
        self.by = by
        self.at = at
    }

    /// The kind of the events that save and delete views.
    public static let kind = "view"

    /// Most views on a board.
    public static let boardLimit = 200

    /// The task id a view's events carry: derived from its name, the same
    /// on every copy (no task ever has it: a task's id is random or derived
    /// from an import's source).
    public static func eventTask(_ name: String) -> TaskID {
        let digits = Array(StableHash.hex(Array(("view/" + name).utf8)) + StableHash.hex(Array(name.utf8)))
        let text =
            String(digits[0..<8]) + "-" + String(digits[8..<12]) + "-8" + String(digits[13..<16]) + "-9"
            + String(digits[17..<20]) + "-" + String(digits[20..<32])
        return TaskID(unchecked: text)
    }

    /// The view a `view` event saves, or nil for a deletion or an event pm
    /// would not keep (checked at the gate too: ``EventProblem/badView``).
    static func saved(by event: Event) -> (name: String, view: SavedView?)? {
        guard case .other(kind) = event.kind, case .string(let name)? = event.fields["name"]?.new,
            Assignees.isValid(name)
        else { return nil }
        switch event.fields["filter"]?.new {
        case .object(let members)?:
            guard let filter = ViewFilter(members) else { return nil }
            return (name, SavedView(name: name, filter: filter, by: event.author, at: event.at))
        case .null?: return (name, nil)
        default: return nil
        }
    }
}

/// A view's filter as the board keeps it: the options of `pm list` that
/// choose cards, each as a script would write it (state keys, priority
/// keys, names, ISO dates or the language-neutral relative forms `today`,
/// `tomorrow`, `+Nd`, `+Nw`), never a word of anyone's language.
public struct ViewFilter: Equatable, Sendable {
    public var states: [String] = []
    public var labels: [String] = []
    /// Priority keys, `none` for none.
    public var priorities: [String] = []
    public var to: [String] = []
    /// The reader's own cards: whoever uses the view.
    public var mine = false
    public var unassigned = false
    public var overdue = false
    public var dueBefore: String?
    public var dueAfter: String?
    public var text: String?
    /// `due`, `title`, `created` or `priority`.
    public var sort: String?

    public init() {}

    /// Most values in one list of a filter.
    static let listLimit = 100

    /// The filter an object holds, checked; nil for anything pm would not
    /// keep. Keys a newer pm adds are left out.
    public init?(_ members: [String: JSONValue]) {
        func strings(_ key: String, _ valid: (String) -> Bool) -> [String]? {
            guard let value = members[key] else { return [] }
            guard case .array(let items) = value, items.count <= Self.listLimit else { return nil }
            var result: [String] = []
            for item in items {
                guard case .string(let text) = item, valid(text) else { return nil }
                result.append(text)
            }
            return result
        }
        func flag(_ key: String) -> Bool? {
            guard let value = members[key] else { return false }
            guard case .bool(let flag) = value else { return nil }
            return flag
        }
        func string(_ key: String, _ valid: (String) -> Bool) -> String?? {
            guard let value = members[key] else { return .some(nil) }
            guard case .string(let text) = value, valid(text) else { return nil }
            return .some(text)
        }
        guard let states = strings("states", { TaskState(rawValue: $0) != nil }),
            let labels = strings("labels", Assignees.isValid),
            let priorities = strings("priorities", { $0 == "none" || Priority(rawValue: $0) != nil }),
            let to = strings("to", Assignees.isValid), let mine = flag("mine"), let unassigned = flag("unassigned"),
            let overdue = flag("overdue"), let dueBefore = string("dueBefore", Self.isDate),
            let dueAfter = string("dueAfter", Self.isDate),
            let text = string(
                "text", { $0.count <= TaskInput.titleLimit && !$0.unicodeScalars.contains(where: TextSafety.isUnsafe) }),
            let sort = string("sort", { ["due", "title", "created", "priority"].contains($0) })
        else { return nil }
        (self.states, self.labels, self.priorities, self.to) = (states, labels, priorities, to)
        (self.mine, self.unassigned, self.overdue) = (mine, unassigned, overdue)
        (self.dueBefore, self.dueAfter, self.text, self.sort) = (dueBefore, dueAfter, text, sort)
    }

    /// A date a filter keeps: ISO, or a relative form every language reads.
    public static func isDate(_ text: String) -> Bool {
        if CivilDate(iso: text) != nil || text == "today" || text == "tomorrow" { return true }
        let bytes = Array(text.utf8)
        guard bytes.count >= 3, bytes.count <= 6, bytes[0] == UInt8(ascii: "+"),
            [UInt8(ascii: "d"), UInt8(ascii: "w")].contains(bytes[bytes.count - 1])
        else { return false }
        return bytes[1..<(bytes.count - 1)].allSatisfy { (0x30...0x39).contains($0) }
    }

    /// The filter as the board and its events write it: only what it sets.
    public var value: JSONValue {
        var members: [String: JSONValue] = [:]
        let lists = [("states", states), ("labels", labels), ("priorities", priorities), ("to", to)]
        for (key, list) in lists where !list.isEmpty { members[key] = .array(list.map(JSONValue.string)) }
        for (key, flag) in [("mine", mine), ("unassigned", unassigned), ("overdue", overdue)] where flag {
            members[key] = .bool(true)
        }
        for (key, text) in [("dueBefore", dueBefore), ("dueAfter", dueAfter), ("text", text), ("sort", sort)] {
            if let text { members[key] = .string(text) }
        }
        return .object(members)
    }
}

extension Board {
    /// The team's saved views, by name.
    public var views: [String: SavedView] { log.replicas?.views ?? [:] }

    /// Saves `filter` as view `name` (replacing one of that name), or with
    /// nil deletes it: an event of its own, committed with the board.
    /// - Parameters:
    ///   - undoes: the change an undo takes back; `redoes`, the one a redo puts back.
    public mutating func setView(
        _ name: String, to filter: ViewFilter?, eventID: TaskID, by user: String, at time: String, undoes: TaskID? = nil,
        redoes: TaskID? = nil
    ) {
        var change = ViewChange(id: eventID, name: name, from: views[name]?.filter, filter: filter, by: user, at: time)
        (change.undoes, change.redoes) = (undoes, redoes)
        viewChanges.append(change)
    }
}

/// A view saved or deleted by this command, waiting to be committed.
public struct ViewChange: Equatable, Sendable {
    public var id: TaskID
    public var name: String
    /// The filter its author saw under that name (nil: none).
    public var from: ViewFilter?
    /// The filter saved (nil: deleted).
    public var filter: ViewFilter?
    public var by: String
    public var at: String
    /// The change an undo takes back, or a redo puts back.
    public var undoes: TaskID?
    public var redoes: TaskID?

    public init(id: TaskID, name: String, from: ViewFilter?, filter: ViewFilter?, by: String, at: String) {
        self.id = id
        self.name = name
        self.from = from
        self.filter = filter
        self.by = by
        self.at = at
    }

    /// Its event. The filter it replaced is the event's `old` value, so
    /// that history can say a view was changed rather than saved.
    public func event(replica: TaskID, clock: HybridClock) -> Event {
        Event(
            id: id, replica: replica, author: by, at: at, clock: clock, task: SavedView.eventTask(name),
            kind: .other(SavedView.kind),
            fields: [
                "name": FieldChangeValues(new: .string(name), old: .null),
                "filter": FieldChangeValues(new: filter?.value ?? .null, old: from?.value ?? .null),
            ], undoes: undoes, redoes: redoes)
    }

    /// What undo keeps of it.
    public var transition: Transition {
        Transition(view: ViewTransition(name: name, from: from, to: filter), eventID: id, at: at)
    }

    /// Its history entry, as the log will give it back.
    public var historyEvent: HistoryEvent {
        var entry = HistoryEvent.view(
            id: id, at: at, by: by, name: name, from: from?.value ?? .null, to: filter?.value ?? .null)
        (entry.undoes, entry.redoes) = (undoes, redoes)
        return entry
    }
}

extension HistoryEvent {
    /// The entry of a saved view's change: action `view`, the view's event
    /// task and name, and one change of `filter` (null: none).
    public static func view(id: TaskID, at: String, by: String, name: String, from: JSONValue, to: JSONValue) -> HistoryEvent {
        HistoryEvent(
            id: id, at: at, by: by, action: .view, taskID: SavedView.eventTask(name), title: name,
            changes: [FieldChange(field: "filter", from: from, to: to)])
    }
}
