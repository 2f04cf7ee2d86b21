/// The fold and the merge rules (DESIGN.md §9): the tasks a set of events
/// comes to. Pure and deterministic: events are applied in merge order
/// (hybrid clock, then replica, then event id), so every copy of a board that
/// has the same events has the same tasks, whatever order they arrived in.
///
/// The rules, applied event by event in that order:
/// - a field change whose replaced value is not what the field holds was made
///   without seeing it (a concurrent change): the later value is shown and the
///   one it displaced is kept as a conflict on the task, until a change that
///   saw the conflicts (`FieldChangeValues.conflicts`) picks a value; values
///   equal after Unicode normalisation are no conflict;
/// - an edit of a task deleted without seeing that edit's change, or a
///   deletion that did not see the task's latest values, keeps the task (with
///   the edit) and marks it restored; deleting it again then sticks;
/// - kinds and fields this pm does not know pass through untouched.
public struct FoldedTasks: Equatable, Sendable {
    /// The tasks by id.
    public private(set) var byID: [TaskID: BoardTask]
    /// Deleted tasks as they last were: an edit made without seeing the
    /// deletion brings the task back.
    private var tombstones: [TaskID: BoardTask] = [:]
    /// Each deleted task as it was before the deletion, heads and
    /// conflicts included: what an undo of that very deletion brings back.
    private var beforeDeletion: [TaskID: Snapshot] = [:]

    struct Snapshot: Equatable, Sendable {
        var deletion: TaskID
        var task: BoardTask
    }
    /// Whether the fold started from a saved state (whose deleted tasks are
    /// not known) rather than from the first event.
    private let fromSavedState: Bool
    /// The merge-order key of the last event applied.
    public private(set) var last: EventOrder?
    /// Set when an event arrived out of merge order or needed a deleted task
    /// a saved state does not keep: only a fold from the first event is right.
    public private(set) var needsFullFold = false
    /// Who each copy is and which copies the board takes.
    public private(set) var ledger: ReplicaLedger

    /// Starts from `tasks` (a board's saved state), or from nothing.
    public init(_ tasks: [BoardTask] = [], last: EventOrder? = nil, ledger: ReplicaLedger = ReplicaLedger()) {
        self.init(tasks, last: last, ledger: ledger, fromSavedState: !tasks.isEmpty || last != nil)
    }

    init(_ tasks: [BoardTask], last: EventOrder?, ledger: ReplicaLedger, fromSavedState: Bool) {
        byID = Dictionary(tasks.map { ($0.id, $0) }, uniquingKeysWith: { _, later in later })
        self.fromSavedState = fromSavedState
        self.last = last
        self.ledger = ledger
    }

    /// Applies `events` (which come after `last` in merge order) to a saved
    /// board's tasks in creation order, touching only the tasks they name:
    /// the cost of a change does not grow with the board. Returns false, with
    /// `tasks` unchanged, when only a fold from the first event is right
    /// (`ledger` nil: a board file that does not have one).
    public static func apply(
        _ events: [Event], to tasks: inout [BoardTask], last: EventOrder?, ledger: inout ReplicaLedger?
    ) -> Bool {
        guard !events.isEmpty else { return true }
        guard let known = ledger else { return false }
        // The few ids named, sorted: each task's id is compared as two
        // integers, never hashed (a board has far more tasks than a change names).
        let named = Array(Set(events.map(\.task))).sorted()
        let (lowest, highest) = (named[0], named[named.count - 1])
        // One bit of 64 for each id named: most ids are passed over on one
        // test, even when the named ones lie far apart (a tail that adds a
        // task names a new id far from the old ones).
        var filter: UInt64 = 0
        for id in named { filter |= 1 << id.filterBit }
        let isNamed = { (id: TaskID) -> Bool in
            if filter & (1 << id.filterBit) == 0 || id < lowest || highest < id { return false }
            var low = 0
            var high = named.count
            while low < high {
                let middle = (low + high) / 2
                if named[middle] < id { low = middle + 1 } else { high = middle }
            }
            return low < named.count && named[low] == id
        }
        // Ids compared where they lie: copying each task to read its id was
        // most of a change's fold on a large board.
        var positions: [Int] = []
        tasks.withUnsafeBufferPointer { all in
            for index in all.indices where filter & (1 << all[index].id.filterBit) != 0 {
                if isNamed(all[index].id) { positions.append(index) }
            }
        }
        var touched = FoldedTasks(positions.map { tasks[$0] }, last: last, ledger: known, fromSavedState: true)
        touched.apply(events)
        guard !touched.needsFullFold else { return false }
        place(touched.ordered, at: positions, in: &tasks)
        ledger = touched.ledger
        return true
    }

    /// Puts the tasks a change left (`changed`, in creation order) into
    /// `tasks`, where the ones it named were at `positions`: the usual
    /// change keeps each task created when it was, between the same
    /// neighbours, and is written in its own place; the others are removed
    /// where they are (the rest slides, nothing is copied), and the new or
    /// moved ones put where creation order puts them.
    private static func place(_ changed: [BoardTask], at positions: [Int], in tasks: inout [BoardTask]) {
        func staysAt(_ task: BoardTask, _ position: Int) -> Bool {
            let key = (task.createdAt, task.id)
            return tasks[position].id == task.id && tasks[position].createdAt == task.createdAt
                && (position == 0 || (tasks[position - 1].createdAt, tasks[position - 1].id) < key)
                && (position == tasks.count - 1 || key < (tasks[position + 1].createdAt, tasks[position + 1].id))
        }
        var unplaced = Dictionary(changed.map { ($0.id, $0) }, uniquingKeysWith: { _, later in later })
        var removed: [Int] = []
        for position in positions {
            if let task = unplaced[tasks[position].id], staysAt(task, position) {
                tasks[position] = task
                unplaced[task.id] = nil
            } else {
                removed.append(position)
            }
        }
        if removed.count <= 64 {
            for position in removed.reversed() { tasks.remove(at: position) }
        } else {
            // Kept ones slid down over the removed (`removed` is in order).
            var kept = removed[0]
            var next = 0
            for index in removed[0]..<tasks.count {
                if next < removed.count && removed[next] == index {
                    next += 1
                } else {
                    tasks.swapAt(kept, index)
                    kept += 1
                }
            }
            tasks.removeLast(tasks.count - kept)
        }
        for task in changed where unplaced[task.id] != nil {
            // Binary search for its place in creation order (a new task is usually last).
            var low = 0
            var high = tasks.count
            while low < high {
                let middle = (low + high) / 2
                if (tasks[middle].createdAt, tasks[middle].id) < (task.createdAt, task.id) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            tasks.insert(task, at: low)
        }
    }

    /// The fold of `events` from nothing: duplicates (the same event id) once,
    /// in merge order.
    public static func fold<Events: Sequence>(_ events: Events) -> FoldedTasks where Events.Element == Event {
        var folded = FoldedTasks()
        folded.apply(inMergeOrder(events))
        return folded
    }

    /// `events` without repeats (by id), sorted in merge order.
    public static func inMergeOrder<Events: Sequence>(_ events: Events) -> [Event] where Events.Element == Event {
        var seen = Set<TaskID>()
        var unique: [Event] = []
        for event in events where seen.insert(event.id).inserted { unique.append(event) }
        return unique.sorted { EventOrder($0) < EventOrder($1) }
    }

    /// The tasks in creation order (created time, then id), as the board file keeps them.
    public var ordered: [BoardTask] {
        byID.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    /// Applies events in order.
    public mutating func apply<Events: Sequence>(_ events: Events) where Events.Element == Event {
        for event in events { apply(event) }
    }

    /// Applies one event, which must come after every event applied so far
    /// in merge order (else `needsFullFold` is set and the event is still applied).
    public mutating func apply(_ event: Event) {
        let key = EventOrder(event)
        if let last, !(last < key) { needsFullFold = true }
        last = key
        guard ledger.take(event) else { return }
        switch event.kind {
        case .created, .restored: applyCreation(event)
        case .edited, .moved:
            var task: BoardTask
            if let existing = byID[event.task] {
                task = existing
                task.restored = false
            } else if let deleted = tombstones.removeValue(forKey: event.task) {
                // Deleted by someone who had not seen this change: it comes back, with it.
                beforeDeletion[event.task] = nil
                task = deleted
                task.restored = true
            } else {
                if fromSavedState { needsFullFold = true }
                return
            }
            if !task.tracked { needsFullFold = true }
            Self.merge(event, into: &task, vouched: ledger.otherPerson(of: event) == nil)
            task.updatedAt = event.at
            byID[event.task] = task
        case .deleted: applyDeletion(event)
        case .other(SavedView.kind): ledger.apply(view: event)
        case .other:
            return
        }
    }

    /// A creation makes the task. On a task that exists or was deleted, it is
    /// a restoration (an undone deletion, a redone add): the task is there
    /// again, and keeps the values it has — a colleague's concurrent edit is
    /// never overwritten. (Older restorations, which name nothing they saw,
    /// set their fields as any change does: a concurrent value is a conflict.)
    private mutating func applyCreation(_ event: Event) {
        var task: BoardTask
        // A creation on a task deleted for good (a card imported again: its
        // id is derived) makes it anew, as a fold from a saved board — which
        // keeps no deleted tasks — does: the board is a function of its
        // events, however they were folded (issue 43).
        if event.kind == .created { tombstones[event.task] = nil }
        let snapshot = beforeDeletion.removeValue(forKey: event.task)
        if let existing = byID[event.task] {
            task = existing
        } else if let deleted = tombstones.removeValue(forKey: event.task) {
            // The undo of the deletion: the task as it was before it.
            if let snapshot, event.kind == .restored, event.undoes == snapshot.deletion {
                task = snapshot.task
            } else {
                task = deleted
            }
        } else {
            if fromSavedState, event.kind == .restored { needsFullFold = true }
            task = BoardTask(id: event.task, title: "", createdAt: event.at, updatedAt: event.at)
            Self.set(event.fields, on: &task)
            for (name, values) in event.fields where name != "createdAt" {
                task.heads[name] = [Head(event: event.id, value: values.new)]
            }
            task.live = [event.id]
            byID[event.task] = task
            return
        }
        if !task.tracked { needsFullFold = true }
        if event.seen == nil {
            var made = event
            // Another making of a task that exists (its id derived: a next
            // occurrence, an import, made on two copies) is the same making:
            // a change since saw one, and replaced it (``merge(_:into:vouched:)``),
            // so its values join only the fields no change has set since.
            if event.kind == .created {
                let live = Set(task.live)
                made.fields = made.fields.filter { name, _ in
                    (task.heads[name] ?? []).allSatisfy { live.contains($0.event) }
                }
            }
            Self.merge(made, into: &task, vouched: ledger.otherPerson(of: event) == nil)
        }
        task.live.append(event.id)
        task.updatedAt = event.at
        task.restored = false
        byID[event.task] = task
    }

    /// A deletion takes away what it saw. What it did not see (a change made
    /// concurrently, whatever became of its value, or a restoration) keeps
    /// the task, marked restored; deletions that together saw everything
    /// leave it deleted.
    private mutating func applyDeletion(_ event: Event) {
        guard var task = byID[event.task] else { return }
        if !task.tracked { needsFullFold = true }
        // What an undo of the deletion brings back: the task as it was, a
        // colleague's conflicting value and every head with it (issue 43,
        // item 11: a value kept only as a conflict was lost to delete, undo).
        // A change that did not see the deletion brings back only what the
        // deletion did not see.
        let before = task
        let seen = event.seen.map(Set.init)
        var assignments: [String: Bool] = [:]
        for name in task.heads.keys.sorted() {
            let kept = (task.heads[name] ?? []).filter { head in
                if let seen { return !seen.contains(head.event) }
                // Older deletions name the values they saw, not the changes.
                guard let values = event.fields[name] else { return false }
                return !(head.value == values.old || values.conflicts.contains(head.value))
            }
            Self.keep(kept, in: name, of: &task, assignments: &assignments)
        }
        task.setAssigned(assignments)
        if let seen { task.live.removeAll { seen.contains($0) } } else { task.live.removeAll() }
        if task.heads.isEmpty, task.live.isEmpty {
            tombstones[event.task] = task
            beforeDeletion[event.task] = Snapshot(deletion: event.id, task: before)
            byID[event.task] = nil
        } else {
            task.restored = true
            byID[event.task] = task
        }
    }

    /// Applies field changes: each replaces the heads it saw; those it did not
    /// see stay, their values kept as conflicts. (An undo or redo saw only
    /// the value it takes back: a value written concurrently stays beside it.)
    /// - Parameter vouched: the event names its own copy's person (``ReplicaLedger``):
    ///   only then may it write a comment, which is its author's alone.
    static func merge(_ event: Event, into task: inout BoardTask, vouched: Bool = true) {
        // Linear in the event: what it saw is looked up in a set, every table
        // changed in place, and the names it assigns set at once (issue 43).
        let seen = event.seen.map(Set.init)
        // Creations of one id (a recurring task's next occurrence, an import,
        // made on two copies) are one creation: a change that saw one of
        // them replaces the values of all, as it would have had it seen each.
        let creations = seen.map { seen in task.live.contains(where: seen.contains) } == true ? Set(task.live) : []
        var assignments: [String: Bool] = [:]
        for name in event.fields.keys.sorted() {
            guard let values = event.fields[name] else { continue }
            if name == "createdAt" {
                set([name: values], on: &task)
                continue
            }
            let field = CardField(name)
            if case .comment(let id)? = field, !vouched || !Self.mayWrite(comment: id, values.new, by: event.author, on: task) {
                continue
            }
            let kept = (task.heads[name] ?? []).filter { head in
                if let seen { return !seen.contains(head.event) && !creations.contains(head.event) }
                // JSONValue's == compares strings by canonical equivalence: NFC and NFD are one value.
                return !(head.value == values.old || values.conflicts.contains(head.value))
            }
            task.heads[name] = kept + [Head(event: event.id, value: values.new)]
            if field?.rule != .anyTrue {
                set([name: values], on: &task)
            }
            refreshConflicts(name, of: &task, assignments: &assignments)
        }
        task.setAssigned(assignments)
    }

    /// Keeps `heads` in a field: when the value shown is none of theirs, the
    /// latest of them (in merge order) is shown.
    private static func keep(
        _ heads: [Head], in name: String, of task: inout BoardTask, assignments: inout [String: Bool]
    ) {
        task.heads[name] = heads.isEmpty ? nil : heads
        if let latest = heads.last, MergeRule.of(name) != .anyTrue,
            !heads.contains(where: { $0.value == LegacyMigration.contentValue(name, of: task) })
        {
            set([name: FieldChangeValues(new: latest.value, old: .null)], on: &task)
        }
        refreshConflicts(name, of: &task, assignments: &assignments)
    }

    /// A field's conflicts: the values its heads hold besides the one shown,
    /// each once (equal after normalisation is one value). Fields of the
    /// other rules never have any.
    private static func refreshConflicts(_ name: String, of task: inout BoardTask, assignments: inout [String: Bool]) {
        let rule = MergeRule.of(name)
        if rule != .usual {
            if rule == .anyTrue { showAnyTrue(name, of: &task, assignments: &assignments) }
            if task.conflicts[name] != nil { task.conflicts[name] = nil }
            return
        }
        let shown = LegacyMigration.contentValue(name, of: task)
        var others: [JSONValue] = []
        for head in task.heads[name] ?? [] where head.value != shown && !others.contains(head.value) {
            others.append(head.value)
        }
        task.conflicts[name] = others.isEmpty ? nil : others
    }

    /// Sets each field's new value; names pm does not know go to the task's
    /// unknown fields. Values were checked when the event was read.
    static func set(_ fields: [String: FieldChangeValues], on task: inout BoardTask) {
        var assignments: [String: Bool] = [:]
        defer { task.setAssigned(assignments) }
        for (name, values) in fields {
            switch (name, values.new) {
            case ("title", .string(let text)): task.title = text
            case ("body", .string(let text)): task.body = text
            case ("due", .null): task.due = nil
            case ("due", .string(let text)): task.due = CivilDate(iso: text)
            case ("state", .string(let text)): task.state = TaskState(rawValue: text) ?? task.state
            case ("createdAt", .string(let text)): task.createdAt = text
            case ("title", _), ("body", _), ("state", _), ("createdAt", _), ("due", _): break
            default:
                if let assignee = Assignees.name(ofField: name) {
                    // Checked when read: a name pm keeps, true or false.
                    guard case .bool(let assigned) = values.new else { break }
                    assignments[assignee] = assigned
                } else if let field = CardField(name) {
                    task.set(field, to: values.new)
                } else {
                    task.unknownFields[name] = values.new
                }
            }
        }
    }
}
