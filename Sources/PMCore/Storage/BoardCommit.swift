/// One commit, the same for a change and for a merge (RELIABILITY.md, "the
/// log and its checkpoint"), under the board's lock:
///
/// 1. **read**: the board file (through its index when it still describes
///    the file), or the board its log records when the file is lost;
/// 2. **schema**: a newer schema is refused; a schema-1 board, or a file
///    whose log is missing, is converted (its past becomes events, written
///    whole with the new ones); any other is rolled forward to its log's end;
/// 3. **append**: the new events are appended and `fsync`ed — the commit;
/// 4. **fold**: in place when they all come after the board's last event,
///    otherwise the whole log again in merge order;
/// 5. **checkpoint**: board.json rewritten when its tail passes the bound
///    (or always, for a merge), best effort: the log already holds it all.
///
/// ``BoardStore/update(newBoardID:replica:_:beforeSave:committed:)`` runs a
/// change between 2 and 3; ``BoardStore/mergeDetailed(_:boardID:newBoardID:replica:source:)``
/// chooses which incoming events are new there.
struct BoardCommit {
    let store: BoardStore
    let lock: BoardLock
    let target: String
    let log: EventLogFile
    /// The board file as read (through the index: its header, no tasks);
    /// nil when there is none.
    let file: (board: Board, status: FileStatus)?
    /// The board read through its index, when it was (its tasks moved into ``board``).
    let indexed: BoardIndexFile.Indexed?
    /// The id the log records, when the board file is lost and its log is not.
    let recordedID: TaskID?
    /// The board: as read, then up to date, then with the new events folded in.
    var board: Board
    /// A conversion's events (the board's past), written whole before the new ones.
    private(set) var rebuilt: [Event]?
    /// Where the board stood once up to date, before any new event.
    private(set) var position = LogPosition()
    /// How many events of the board's record went in before the new ones.
    private(set) var recordCount = 0

    /// The mode the board's files keep.
    var mode: UInt32 { file?.status.mode ?? 0o644 }
    /// The history's marks beside the log.
    var marks: HistoryMarksFile { HistoryMarksFile(fileSystem: store.fileSystem, log: log, mode: mode) }

    /// Step 1: reads the board at `target`; a board that does not exist yet
    /// is `newBoardID` (when its log does not name it).
    /// - Parameter throughIndex: read only the tasks used, through the index.
    init(store: BoardStore, lock: BoardLock, target: String, newBoardID: TaskID, throughIndex: Bool) throws {
        (self.store, self.lock, self.target) = (store, lock, target)
        log = store.eventLog(of: target)
        var indexed = throughIndex ? store.index.read(board: target) : nil
        file = try indexed.map { ($0.header, $0.status) } ?? store.read(target)
        recordedID = try file == nil && log.exists() ? log.recordedBoard() : nil
        board = file?.board ?? Board(id: recordedID ?? newBoardID)
        if let tasks = indexed?.tasks {
            indexed?.tasks = []
            board.tasks = tasks
        }
        self.indexed = indexed
        if board.schemaVersion > Board.currentSchemaVersion {
            throw PMError.newerSchema(path: target, found: board.schemaVersion, supported: Board.currentSchemaVersion)
        }
    }

    /// Step 2: converts the board (schema 1, or a file without its log) or
    /// rolls it forward to its log's end.
    mutating func bringUpToDate(replica: TaskID) throws {
        if try board.schemaVersion < 2 || (file != nil && !log.exists()) {
            if board.schemaVersion < 2, file != nil { try store.keepSchemaOneFile(board, at: target, mode: mode) }
            rebuilt = try store.convert(&board, replica: replica)
        } else {
            try store.rollForward(&board, log: log)
        }
        position = board.log
    }

    /// Step 2 for a log older than the board file (a backup put back,
    /// ``BoardStore/recoverOlderLog(replica:author:at:stamp:remote:makeID:)``):
    /// the board as its log alone gives it.
    mutating func refoldFromLog() throws {
        board = Board(id: board.id)
        try store.refold(&board, log: log)
        position = board.log
    }

    /// A task read through the index was not what the index said: the index
    /// is dropped and the damage thrown, before anything is committed.
    func refuseDamage() throws {
        guard let damage = indexed?.file.damage else { return }
        store.index.drop(at: target)
        throw damage
    }

    /// Step 3: appends `events` to the log and `fsync`s it — the commit. A
    /// converted board's log is written whole: its past in merge order (the
    /// board's record, at the start of time, first), then `events`.
    /// - Parameter merged: events from elsewhere, not this copy's change:
    ///   history sorts them as one batch.
    /// - Returns: the log's committed length.
    mutating func append(_ events: [Event], merged: Bool) throws -> Int {
        if let rebuilt {
            let bytes = FoldedTasks.inMergeOrder(rebuilt).flatMap(EventCodec.line) + events.flatMap(EventCodec.line)
            if merged {
                marks.recordMerged(start: 0, end: bytes.count, bound: nil)
            } else {
                marks.fromStart()
            }
            _ = try AtomicFileWriter(fileSystem: store.fileSystem).write([bytes[...]], to: log.path, mode: 0o644)
            marks.noteRecorded(from: position.length)
            return bytes.count
        }
        let start = position.length
        let needed = marks.recordNeeded(board: board.id, at: start)
        let written = (needed ?? []) + events
        recordCount = written.count - events.count
        if merged {
            let length = written.reduce(0) { $0 + EventCodec.line($1).count }
            marks.recordMerged(start: start, end: start + length, bound: position.order)
        }
        // A new board's file comes first, so its id is fixed before any event.
        if file == nil { try store.writeBoard(Board(id: board.id), to: target, mode: 0o644) }
        let end = try log.append(written)
        if needed != nil { marks.noteRecorded(from: start) }
        return end
    }

    /// Step 4: the board becomes `tasks` (as they stood before `events`) with
    /// `events`, committed up to `end`, folded in by the same rules as a
    /// merge: in place when they all come after the board's last event,
    /// otherwise the whole log again in merge order.
    /// - Returns: whether they folded in place.
    mutating func fold(_ events: [Event], onto tasks: inout [BoardTask], end: Int, merged: Bool) throws -> Bool {
        // Only the board's record went in (a recovery with nothing to
        // replay): the tasks stand, the log moved; its whole fold says where.
        if events.isEmpty, end != position.length {
            board.history = HistoryLog()
            try store.refold(&board, log: log)
            return false
        }
        var ledger = position.replicas
        let inPlace =
            (position.order != nil || position.events == 0)
            && FoldedTasks.apply(events, to: &tasks, last: position.order, ledger: &ledger)
        board.history = HistoryLog()
        if inPlace {
            (board.tasks, tasks) = (tasks, [])
            // No new event (a conversion alone): the board stands where it did.
            if let newest = events.last {
                board.log = LogPosition(
                    events: position.events + recordCount + events.count, length: end, newest: newest, replicas: ledger)
            }
            return true
        }
        // A change that comes before the board's last event (a clock seen
        // more than seven days ahead is not followed) bounds nothing in
        // history: its events are a batch there, like a merge's.
        if !merged {
            let start = rebuilt == nil ? position.length : end - events.reduce(0) { $0 + EventCodec.line($1).count }
            marks.recordMerged(start: start, end: end, bound: position.order)
        }
        try store.refold(&board, log: log)
        return false
    }

    /// Step 5: board.json rewritten as the checkpoint of the board now,
    /// when due (`always`, or its tail past the bound, or a file that cannot
    /// stand behind its log); otherwise the index of the file as read, when
    /// it had none. Best effort: the log already holds every change.
    func checkpoint(folded: Bool, always: Bool) {
        // A file without heads (an older pm's) makes every reader fold the
        // whole log again: the first change writes it with them.
        let headless = file?.board.tasks.contains { $0.isDecoded && !$0.tracked } ?? false
        let due =
            always || rebuilt != nil || !folded || headless
            || BoardStore.tailPassesBound(from: file?.board.log, to: board.log, schema: file?.board.schemaVersion)
        if due, lock.stillHeld() {
            store.writeCheckpoint(board, throughIndex: indexed != nil, to: target, mode: mode, log: log)
        } else if indexed == nil, let file {
            store.index.write(of: file.board, status: file.status, at: target)
        }
        if indexed?.file.damage != nil { store.index.drop(at: target) }
    }
}
