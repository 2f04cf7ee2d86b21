import PMCore

/// Changes made with this user's undo stacks: every change records its
/// step, and undo, redo and `--skip` take a step back whole (DESIGN.md §5).
extension BoardSession {
    /// Changes the board under the lock with this user's undo stacks at hand.
    /// `body` returns what the change did to the stacks; the undo state is
    /// saved with that step pending *before* the board, and the step counts
    /// once its event is on the board (RELIABILITY.md: a kill between the two
    /// saves never leaves a change out of its author's stack). A damaged or
    /// unsaveable undo file refuses the change before the board is touched.
    private func updateWithUndo<Result>(_ body: (inout Board, UndoState) throws -> (Result, UndoStep?)) throws -> Result {
        var pending: (store: UndoStore, stored: UndoStore.Stored)?
        var changed: Board?
        try keyStore().checkSafe()
        let (store, replica) = signingStore()
        try mergeConflictedCopies()
        let log = try store.eventLog()
        // A board.json lost beside its log is made again, not started: the
        // log is the board (DESIGN.md §4), and saying "new" would be untrue.
        let existed = boardFileExists() || ((try? log.exists()) ?? false)
        let result = try store.update(
            newBoardID: environment.makeID(), replica: replica,
            { board in
                let undo = undoStore(for: board)
                let state = try undo.load().resolved(against: board, log: log)
                // The change's lines start where the log ends now (the board holds its whole log).
                let offset = board.log.length
                let (result, step) = try body(&board, state)
                pending = step.map { (undo, UndoStore.Stored(committed: state, pending: $0, pendingOffset: offset)) }
                return result
            },
            beforeSave: { _ in
                if let pending { try pending.store.save(pending.stored) }
            },
            committed: { board in changed = board })
        notice(.boardChanged)
        // A new board is announced once, when its file is created (a typo in
        // --board or PM_BOARD would otherwise start one silently).
        if !existed && boardFileExists() { notice(.newBoard(path: environment.boardPath)) }
        // A reminder popped up for a task now done, deleted or redated (an undo included) is withdrawn.
        if let changed { afterChange(changed) }
        return result
    }

    /// Changes the board under the lock, saves it, and records the change on
    /// this user's undo stack (which clears their redo stack).
    /// - Parameter oneStep: the changes to several tasks are undone together
    ///   (an import); otherwise each is its own undo step.
    public func change<Result>(oneStep: Bool = false, _ body: (inout Board) throws -> Result) throws -> Result {
        try updateWithUndo { board, _ in
            let (known, knownViews) = (board.history.appended.count, board.viewChanges.count)
            let result = try body(&board)
            var transitions = board.history.appended.dropFirst(known).map { event in
                Transition(
                    from: board.history.original(of: event.taskID), to: board.task(event.taskID), eventID: event.id,
                    at: event.at)
            }
            // A saved view's change is a step of its own, as a task's is.
            transitions += board.viewChanges.dropFirst(knownViews).map(\.transition)
            Self.batch(&transitions, if: oneStep)
            return (result, transitions.isEmpty ? nil : .record(transitions))
        }
    }

    /// Marks several transitions as one undo step, named by the last one's event.
    private static func batch(_ transitions: inout [Transition], if oneStep: Bool) {
        guard oneStep, transitions.count > 1, let last = transitions.last?.eventID else { return }
        for index in transitions.indices { transitions[index].batch = last }
    }

    /// Reverts this user's last change, a step of several tasks (an import)
    /// whole or not at all.
    /// - Returns: the history events recording what it did, in order.
    public func undo() throws -> [HistoryEvent] { try revert(redo: false) }

    /// Makes this user's last undo again.
    /// - Returns: the history events recording what it did, in order.
    public func redo() throws -> [HistoryEvent] { try revert(redo: true) }

    private func revert(redo: Bool) throws -> [HistoryEvent] {
        try updateWithUndo { board, state in
            let step = redo ? state.nextRedo : state.nextUndo
            guard !step.isEmpty else { throw redo ? PMError.nothingToRedo : PMError.nothingToUndo }
            let (known, knownViews) = (board.history.appended.count, board.viewChanges.count)
            var made: [Transition] = []
            // The newest change first, as they were made in the other order.
            for last in step.reversed() {
                do {
                    made.append(try board.revert(last, eventID: environment.makeID(), by: environment.user, at: now, redo: redo))
                } catch PMError.undoConflict(var conflict) where conflict.by == nil {
                    // Who changed the task last is in the log's end.
                    if let id = last.taskID, let entry = try newestEntry(onTask: id) {
                        (conflict.by, conflict.at) = (entry.by, entry.at)
                    }
                    throw PMError.undoConflict(conflict)
                }
            }
            Self.batch(&made, if: true)
            let events =
                Array(board.history.appended.dropFirst(known)) + board.viewChanges.dropFirst(knownViews).map(\.historyEvent)
            guard !events.isEmpty else { throw PMError.nothingToUndo }
            return (events, redo ? .redone(made: made) : .undone(made: made))
        }
    }

    /// The newest history entry about a task, reading the log from its end
    /// only as far as needed.
    func newestEntry(onTask id: TaskID) throws -> HistoryEvent? {
        var limit = 64
        while true {
            let entries = try store().recentHistory(limit: limit)
            if let entry = entries.first(where: { $0.taskID == id }) { return entry }
            if entries.count < limit { return nil }
            limit *= 8
        }
    }

    /// Drops this user's last undo step without touching the board (`pm undo
    /// --skip`), so that older changes stay reachable when a colleague's
    /// change blocks it.
    /// - Returns: the dropped step, as the history says its changes.
    public func skipUndo() throws -> [HistoryEvent] {
        let step = try store().withLockedBoard { board in
            guard let board else { throw PMError.nothingToUndo }
            let undo = undoStore(for: board)
            var state = try undo.load().resolved(against: board, log: try store().eventLog())
            let step = Array(state.nextUndo)
            guard !step.isEmpty else { throw PMError.nothingToUndo }
            state.apply(.skipped)
            try undo.save(UndoStore.Stored(committed: state))
            return step
        }
        return step.map { Board.describe($0, by: environment.user) }
    }

    /// What undo and redo can do now, for a front end's buttons.
    public struct UndoAvailability: Sendable, Equatable {
        public var canUndo = false
        public var canRedo = false
        /// The last change cannot be taken back whole (a colleague changed its task since).
        public var undoBlocked = false

        public init(canUndo: Bool = false, canRedo: Bool = false, undoBlocked: Bool = false) {
            self.canUndo = canUndo
            self.canRedo = canRedo
            self.undoBlocked = undoBlocked
        }
    }

    /// What this user's undo and redo would do to `board`.
    public func undoAvailability(on board: Board) -> UndoAvailability {
        let log = try? store().eventLog()
        let state = (try? undoStore(for: board).load().resolved(against: board, log: log)) ?? UndoState()
        let blocked = !state.undo.isEmpty && !board.canRevert(step: state.nextUndo)
        return UndoAvailability(canUndo: !state.undo.isEmpty, canRedo: !state.redo.isEmpty, undoBlocked: blocked)
    }
}
