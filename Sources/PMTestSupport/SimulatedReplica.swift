import PMCore

/// One copy of a board on one machine, in memory: it makes changes through
/// the same use cases and event construction as `BoardStore.update`, on the
/// fold of the events it has seen, with its own wall clock (which may be
/// skewed), and receives other copies' events as sync would.
public struct SimulatedReplica: Sendable {
    public let replica: TaskID
    public let author: String
    /// Every event this copy has, in arrival order.
    public private(set) var events: [Event] = []
    /// This copy's wall clock, in milliseconds since 1970.
    public var wall: Int64
    private var next = 0
    /// The undo stack's transitions (newest last), as `pm undo` keeps them.
    public private(set) var undoable: [Transition] = []

    /// Signs this copy's events (nil: an unsigned copy, as from before keys).
    private let signer: EventSigner?

    /// - Parameter signed: the copy signs its events with a key of its own
    ///   (the same for the same number), and its id is the key's.
    public init(number: Int, author: String, wall: Int64 = 1_795_000_000_000, signed: Bool = false) {
        signer = signed ? EventSigner(seed: (0..<32).map { UInt8(truncatingIfNeeded: number &* 31 &+ $0) }) : nil
        replica = signer?.replica ?? TaskID("0000000\(number)-0000-4000-8000-000000000000")!
        self.author = author
        self.wall = wall
        self.number = number
    }

    private let number: Int

    /// The tasks this copy shows.
    public var tasks: [BoardTask] { FoldedTasks.fold(events).ordered }

    /// The board file this copy writes.
    public var boardBytes: [UInt8] {
        var board = Board(id: TaskID("00c0ffee-0000-4000-8000-00000000b0a4")!)
        let ordered = FoldedTasks.inMergeOrder(events)
        let folded = FoldedTasks.fold(ordered)
        board.tasks = folded.ordered
        board.log = LogPosition(
            events: ordered.count, length: ordered.reduce(0) { $0 + EventCodec.line($1).count }, newest: ordered.last,
            replicas: folded.ledger)
        return BoardEncoder.encode(board)
    }

    private mutating func makeID() -> TaskID {
        next += 1
        let tail = String(next, radix: 16)
        return TaskID(
            "\(number)\(number)\(number)\(number)0000-0000-4000-8000-" + String(repeating: "0", count: 12 - tail.count) + tail)!
    }

    /// Runs one use case on the current fold and records its event; nil when it changed nothing.
    @discardableResult
    public mutating func change(_ use: (inout Board, TaskID, String, String) throws -> Void) rethrows -> Event? {
        wall += 1_000
        var board = Board(id: TaskID("00c0ffee-0000-4000-8000-00000000b0a4")!)
        let folded = FoldedTasks.fold(FoldedTasks.inMergeOrder(events))
        let before = folded.ordered
        board.tasks = before
        // The saved views as this copy shows them (the ledger keeps them).
        board.log = LogPosition(events: 0, length: 0, newest: nil, replicas: folded.ledger)
        let time = Self.iso(wall)
        try use(&board, makeID(), author, time)
        let clock = HybridClock.tick(after: events.map(\.clock).max(), now: wall)
        if let view = board.viewChanges.last {
            var event = view.event(replica: replica, clock: clock)
            if let signer { event = signer.seal(event) }
            events.append(event)
            undoable.append(view.transition)
            return event
        }
        guard let entry = board.history.appended.last else { return nil }
        var event = Event(
            change: entry, before: before.first { $0.id == entry.taskID }, after: board.task(entry.taskID), replica: replica,
            clock: clock)
        if let signer { event = signer.seal(event) }
        events.append(event)
        undoable.append(
            Transition(from: before.first { $0.id == entry.taskID }, to: board.task(entry.taskID), eventID: event.id, at: time))
        return event
    }

    @discardableResult
    public mutating func add(_ title: String) -> TaskID? {
        let id = makeID()
        change { board, event, user, time in _ = try? board.add(title: title, id: id, eventID: event, by: user, at: time) }
        return id
    }

    /// Adds a task under a given id, as an import does (its ids are
    /// derived from the source: the same card gets the same id again).
    @discardableResult
    public mutating func add(_ title: String, id: TaskID, assignees: [String] = []) -> Event? {
        guard !tasks.contains(where: { $0.id == id }) else { return nil }
        return change { board, event, user, time in
            _ = try? board.add(title: title, assignees: assignees, id: id, eventID: event, by: user, at: time)
        }
    }

    @discardableResult
    public mutating func edit(_ id: TaskID, _ edit: Board.Edit) -> Event? {
        change { board, event, user, time in _ = try? board.edit(id, edit, eventID: event, by: user, at: time) }
    }

    @discardableResult
    public mutating func move(_ id: TaskID, to state: TaskState) -> Event? {
        change { board, event, user, time in _ = try? board.move(id, to: state, eventID: event, by: user, at: time) }
    }

    @discardableResult
    public mutating func assign(_ id: TaskID, _ names: [String] = [], unassign removed: [String] = []) -> Event? {
        change { board, event, user, time in
            _ = try? board.assign(id, adding: names, removing: removed, eventID: event, by: user, at: time)
        }
    }

    /// Changes a card's labels, priority, checklist or comments.
    @discardableResult
    public mutating func card(_ id: TaskID, _ change: CardChange) -> Event? {
        self.change { board, event, user, time in _ = try? board.change(id, change, eventID: event, by: user, at: time) }
    }

    /// Saves `filter` as view `name`, or with nil deletes it (as `pm view save`/`delete` do).
    @discardableResult
    public mutating func setView(_ name: String, to filter: ViewFilter?) -> Event? {
        change { board, event, user, time in
            guard filter != nil || board.views[name] != nil else { return }
            board.setView(name, to: filter, eventID: event, by: user, at: time)
        }
    }

    /// The saved views this copy shows.
    public var views: [String: SavedView] { FoldedTasks.fold(FoldedTasks.inMergeOrder(events)).ledger.views }

    @discardableResult
    public mutating func delete(_ id: TaskID) -> Event? {
        change { board, event, user, time in _ = try? board.delete(id, eventID: event, by: user, at: time) }
    }

    /// Undoes this copy's newest step when its fields still hold what it
    /// wrote (as `pm undo` does: a step of several changes whole or not at
    /// all); nil when refused or there is none.
    @discardableResult
    public mutating func undo() -> Event? { undoStep().last }

    /// Undoes this copy's newest step, as ``undo()``; every event it wrote.
    @discardableResult
    public mutating func undoStep() -> [Event] {
        guard let last = undoable.last else { return [] }
        let count = last.batch.map { batch in undoable.reversed().prefix { $0.batch == batch }.count } ?? 1
        let step = Array(undoable.suffix(count))
        undoable.removeLast(count)
        if step.count == 1, step[0].view != nil || step[0].batch == nil {
            let made = change { board, event, user, time in _ = try? board.revert(step[0], eventID: event, by: user, at: time) }
            return made.map { [$0] } ?? []
        }
        return changeStep { board, makeID, user, time in
            var copy = board
            for transition in step.reversed() { _ = try copy.revert(transition, eventID: makeID(), by: user, at: time) }
            board = copy
        }
    }

    /// Runs a use case that may write several events (a recurring task
    /// done and its next occurrence) on the current fold, each with the next
    /// tick of this copy's clock, as one undo step; none when it threw or
    /// changed nothing.
    @discardableResult
    public mutating func changeStep(_ use: (inout Board, () -> TaskID, String, String) throws -> Void) -> [Event] {
        wall += 1_000
        var board = Board(id: TaskID("00c0ffee-0000-4000-8000-00000000b0a4")!)
        let folded = FoldedTasks.fold(FoldedTasks.inMergeOrder(events))
        board.tasks = folded.ordered
        board.log = LogPosition(events: 0, length: 0, newest: nil, replicas: folded.ledger)
        let time = Self.iso(wall)
        var ids: [TaskID] = []
        for _ in 0..<8 { ids.append(makeID()) }
        var next = 0
        let makeID = { () -> TaskID in
            defer { next += 1 }
            return ids[min(next, ids.count - 1)]
        }
        guard (try? use(&board, makeID, author, time)) != nil else { return [] }
        var made: [Event] = []
        var transitions: [Transition] = []
        var clock = events.map(\.clock).max()
        for entry in board.history.appended {
            clock = HybridClock.tick(after: clock, now: wall)
            let before = board.history.original(of: entry.taskID)
            var event = Event(change: entry, before: before, after: board.task(entry.taskID), replica: replica, clock: clock!)
            if let signer { event = signer.seal(event) }
            made.append(event)
            transitions.append(Transition(from: before, to: board.task(entry.taskID), eventID: event.id, at: time))
        }
        if transitions.count > 1, let batch = made.last?.id {
            for index in transitions.indices { transitions[index].batch = batch }
        }
        events += made
        undoable += transitions
        return made
    }

    /// Moves a task to DONE as `pm done` does: a recurring one makes its
    /// next occurrence, `today` being this copy's day.
    @discardableResult
    public mutating func complete(_ id: TaskID, today: CivilDate) -> [Event] {
        changeStep { board, makeID, user, time in
            _ = try board.move(id, to: .done, today: today, eventID: makeID(), nextEventID: makeID(), by: user, at: time)
        }
    }

    /// Takes in events from other copies (those it already has change nothing).
    public mutating func receive<Events: Sequence>(_ incoming: Events) where Events.Element == Event {
        var known = Set(events.map(\.id))
        for event in incoming where known.insert(event.id).inserted { events.append(event) }
    }

    /// ISO 8601 UTC with milliseconds, as pm stores times.
    public static func iso(_ milliseconds: Int64) -> String {
        let days = milliseconds / 86_400_000
        let rest = milliseconds % 86_400_000
        let date = CivilDate.first.adding(days: Int(days) + 719_162) ?? CivilDate.first
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let ms = rest % 1000
        let msText = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
        return
            "\(date.description)T\(two(rest / 3_600_000)):\(two(rest / 60_000 % 60)):\(two(rest / 1000 % 60)).\(msText)Z"
    }
}

extension Sequence where Element == BoardTask {
    /// The tasks as a person sees them: without the heads the fold keeps
    /// (a board changed in memory by use cases does not keep them).
    public var shown: [BoardTask] {
        map { task in
            var plain = task
            (plain.heads, plain.live, plain.tracked) = ([:], [], true)
            return plain
        }
    }
}

/// What a faulty transport delivers of `events`: all of them, some, some
/// twice (the repeats shuffled in), in reverse, or shuffled — one at random.
public func faultyDelivery(_ events: [Event], using random: inout SeededGenerator) -> [Event] {
    var batch = events
    switch Int.random(in: 0..<5, using: &random) {
    case 0: break
    case 1: batch = batch.filter { _ in Bool.random(using: &random) }
    case 2: batch += batch.filter { _ in Bool.random(using: &random) }.shuffled(using: &random)
    case 3: batch.reverse()
    default: batch.shuffle(using: &random)
    }
    return batch
}
