import PMICU

#if canImport(Glibc)
    import Glibc
#endif

/// A board: its tasks, in a stable order, and its history.
public struct Board: Equatable, Sendable {
    /// The newest file format this pm reads and writes: 2, the state folded
    /// from the event log beside it (1: history inside the file, pm 0.1).
    public static let currentSchemaVersion = 2

    public var schemaVersion: Int
    /// The board's UUID; per-user state (undo, reminders) is keyed by it.
    public var id: TaskID
    /// Counts saves; lets a writer notice a file changed under it.
    public var revision: Int
    /// Tasks in file order (creation order): a change to one task is a small diff.
    public var tasks: [BoardTask]
    /// Schema 1: the history stored in the file. Schema 2: only this run's new entries.
    public var history: HistoryLog
    /// Schema 2: how much of the event log the tasks include.
    public var log: LogPosition
    /// Top-level fields written by a newer pm, kept as they are.
    public var unknownFields: [String: JSONValue]
    /// Views this command saved or deleted, committed with its changes.
    public internal(set) var viewChanges: [ViewChange] = []
    /// The file the tasks were read from: saving copies an unchanged task's
    /// bytes instead of encoding it again. Not part of the board's value.
    public var source = TaskSource()

    /// A new, empty board.
    public init(id: TaskID) {
        self.init(
            schemaVersion: Board.currentSchemaVersion, id: id, revision: 0, tasks: [], history: HistoryLog(), unknownFields: [:])
        log.replicas = ReplicaLedger()
    }

    public init(
        schemaVersion: Int, id: TaskID, revision: Int, tasks: [BoardTask], history: HistoryLog,
        unknownFields: [String: JSONValue]
    ) {
        self.schemaVersion = schemaVersion
        self.id = id
        self.revision = revision
        self.tasks = tasks
        self.history = history
        self.log = LogPosition()
        self.unknownFields = unknownFields
    }

    /// The task with exactly this id.
    public func task(_ id: TaskID) -> BoardTask? {
        tasks.first { $0.id == id }
    }
}

/// Where in the event log a schema-2 board stands: the tasks in
/// `board.json` are the fold of the log's first `events` lines (`length`
/// bytes); a reader folds in whatever the log has after that (a crash
/// between appending and rewriting the board loses nothing).
public struct LogPosition: Equatable, Sendable {
    /// How many events the tasks include.
    public var events: Int
    /// How many bytes of the log they are.
    public var length: Int
    /// The last of them in merge order (hybrid clock, replica, id), its
    /// clock (the greatest: the next event's clock ticks after it) and replica.
    public var last: TaskID?
    public var clock: HybridClock?
    public var replica: TaskID?
    /// Who each copy is and which the board takes, as of these events
    /// (nil: a file written before pm kept it, or by an older pm).
    public var replicas: ReplicaLedger?

    public init(events: Int = 0, length: Int = 0, last: TaskID? = nil, clock: HybridClock? = nil) {
        self.events = events
        self.length = length
        self.last = last
        self.clock = clock
    }

    /// Stands at the end of `count` events (`length` bytes) whose last in
    /// merge order is `newest`.
    public init(events count: Int, length: Int, newest: Event?, replicas: ReplicaLedger? = nil) {
        self.init(events: count, length: length, last: newest?.id, clock: newest?.clock)
        replica = newest?.replica
        self.replicas = replicas
    }

    /// Where the last event stands in merge order (nil for an older file
    /// that did not record its replica: then every event is taken as new).
    public var order: EventOrder? {
        guard let clock, let last, let replica else { return nil }
        return EventOrder(clock: clock, replica: replica.rawValue, id: last.rawValue)
    }
}

/// glibc's `memmem`, which Swift's Glibc module does not export.
@_silgen_name("memmem")
func glibcMemmem(_ haystack: UnsafeRawPointer, _ haystackLength: Int, _ needle: UnsafeRawPointer, _ needleLength: Int)
    -> UnsafeMutableRawPointer?

/// The board's history: the events read from the file, kept as their JSON
/// text until someone needs them, and the events added since.
///
/// Listing or changing the board never decodes the history: it is written
/// back as read, with new events appended.
public struct HistoryLog: Equatable, Sendable {
    /// The `history` array exactly as read (`[]` for a new board): a slice of
    /// the file's bytes, shared, not copied.
    var storedJSON: ArraySlice<UInt8>
    /// Events added in this run, oldest first.
    public private(set) var appended: [HistoryEvent]
    /// Each task those events touched, as it stood before the first of them
    /// (nil: it did not exist yet), in the order they were first touched. A
    /// change keeps these few, never a copy of the whole board.
    private(set) var touched: [TouchedTask] = []

    /// A task as it stood before this run first changed it.
    struct TouchedTask: Equatable, Sendable {
        var id: TaskID
        var original: BoardTask?
    }

    /// An empty history.
    public init() {
        storedJSON = Array("[]".utf8)[...]
        appended = []
    }

    init(storedJSON: ArraySlice<UInt8>) {
        self.storedJSON = storedJSON
        appended = []
    }

    /// Adds an event at the end.
    /// - Parameter task: the event's task as it stood just before it (nil:
    ///   the event creates it).
    public mutating func append(_ event: HistoryEvent, before task: BoardTask?) {
        if !touched.contains(where: { $0.id == event.taskID }) {
            touched.append(TouchedTask(id: event.taskID, original: task))
        }
        appended.append(event)
    }

    /// The task as it stood before this run's first event on it; nil when
    /// it did not exist then (or no event touched it).
    public func original(of id: TaskID) -> BoardTask? {
        touched.first { $0.id == id }?.original
    }

    /// Puts back, in `tasks` as the events left them, every task they touched
    /// as it stood before: the board before this run's changes, in place.
    func restoreTouched(in tasks: inout [BoardTask]) {
        for entry in touched.reversed() {
            tasks.put(entry.original, at: tasks.firstIndex { $0.id == entry.id })
        }
    }

    /// The newest `limit` events, newest first, decoding only those.
    /// - Throws: ``PMError/boardCorrupt`` when a stored event is malformed.
    public func recentEvents(limit: Int) throws -> [HistoryEvent] {
        let fromAppended = Array(appended.suffix(limit).reversed())
        let wanted = limit - fromAppended.count
        guard wanted > 0 else { return fromAppended }
        return fromAppended + (try BoardDecoder.decodeHistory(storedJSON, last: wanted).reversed())
    }

    /// How many events there are.
    public func count() throws -> Int {
        try BoardDecoder.historyElementStarts(storedJSON).count + appended.count
    }

    /// The newest event that `matches`, decoding stored events from the end
    /// only as far as needed.
    /// - Throws: ``PMError/boardCorrupt`` when a stored event is malformed.
    public func lastEvent(where matches: (HistoryEvent) -> Bool) throws -> HistoryEvent? {
        if let event = appended.last(where: matches) { return event }
        return try BoardDecoder.lastHistoryEvent(storedJSON, where: matches)
    }

    /// Whether the event with this id is in the history: a search of the
    /// stored bytes (glibc's `memmem`, gigabytes a second) for the id as pm
    /// writes it, so no event is decoded.
    public func contains(eventID: TaskID) -> Bool {
        if appended.contains(where: { $0.id == eventID }) { return true }
        let needle = Array("\"id\": \"\(eventID.rawValue)\"".utf8)
        return storedJSON.withUnsafeBytes { haystack in
            needle.withUnsafeBytes { pattern in
                guard let base = haystack.baseAddress, let wanted = pattern.baseAddress else { return false }
                return glibcMemmem(base, haystack.count, wanted, pattern.count) != nil
            }
        }
    }

    /// Every event, oldest first, decoding the stored ones.
    /// - Throws: ``PMError/boardCorrupt`` when a stored event is malformed.
    public func events() throws -> [HistoryEvent] {
        try BoardDecoder.decodeHistory(storedJSON) + appended
    }
}

/// Each task as read, with where its object lies in the file's bytes.
/// Never compared: two boards with the same tasks are equal wherever they were read from.
public struct TaskSource: Equatable, Sendable {
    var bytes: [UInt8] = []
    var tasks: [BoardTask] = []
    var spans: [Range<Int>] = []
    /// Where the tasks array begins: what comes before is the board's header.
    var tasksStart = 0

    public init() {}

    init(bytes: [UInt8], tasks: [BoardTask], spans: [Range<Int>], tasksStart: Int) {
        self.bytes = bytes
        self.tasks = tasks
        self.spans = spans
        self.tasksStart = tasksStart
    }

    /// Finds where an unchanged task was in the file. Built when saving,
    /// never on a read-only command.
    struct Positions {
        let source: TaskSource
        let index: [TaskID: Int]

        init(_ source: TaskSource) {
            self.source = source
            var index: [TaskID: Int] = [:]
            index.reserveCapacity(source.tasks.count)
            for (position, task) in source.tasks.enumerated() { index[task.id] = position }
            self.index = index
        }

        /// Where `task` was in the file, when it is unchanged since.
        func of(_ task: BoardTask) -> Int? {
            guard let position = index[task.id], source.tasks[position] == task else { return nil }
            return position
        }
    }

    /// Whether the bytes between tasks `first` and `second` of the file are
    /// what the encoder writes between two tasks (``CopiedTasks/separator``).
    func separates(_ first: Int, _ second: Int) -> Bool {
        let between = spans[first].upperBound..<spans[second].lowerBound
        return bytes[between].elementsEqual(CopiedTasks.separator)
    }

    /// The tasks whose bytes hold a lead byte of a character the encoder may
    /// escape (``TextSafety/unsafeLeadBytes``), found with memchr over the
    /// whole file rather than byte by byte per task.
    func positionsWithEscapableBytes() -> Set<Int> {
        var found = Set<Int>()
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for lead in TextSafety.unsafeLeadBytes {
                var offset = 0
                while offset < buffer.count,
                    let hit = memchr(base + offset, Int32(lead), buffer.count - offset)
                {
                    let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    // The span holding `at`, by binary search (spans are in file order).
                    var low = 0
                    var high = spans.count
                    while low < high {
                        let middle = (low + high) / 2
                        if spans[middle].upperBound <= at { low = middle + 1 } else { high = middle }
                    }
                    if low < spans.count, spans[low].contains(at) { found.insert(low) }
                    offset = at + 1
                }
            }
        }
        return found
    }

    public static func == (_: TaskSource, _: TaskSource) -> Bool { true }
}

extension [BoardTask] {
    /// Puts `task` in place of the one at `index` (nil: removes that one); a
    /// task with no place yet goes where creation order puts it, so the
    /// file's order stays stable.
    mutating func put(_ task: BoardTask?, at index: Int?) {
        switch (index, task) {
        case (let index?, let task?): self[index] = task
        case (let index?, nil): remove(at: index)
        case (nil, let task?):
            let position = firstIndex { ($0.createdAt, $0.id) > (task.createdAt, task.id) } ?? endIndex
            insert(task, at: position)
        case (nil, nil): break
        }
    }
}
