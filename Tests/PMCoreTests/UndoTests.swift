import Foundation
import PMCore
import PMTestSupport
import Testing

@Suite struct UndoTests {
    let ids = CountingIDs()
    let t0 = "2026-11-21T10:00:00.000Z"
    let t1 = "2026-11-21T11:00:00.000Z"

    /// Applies a change and returns the transition the command layer would record.
    func change(_ board: inout Board, _ body: (inout Board) throws -> Void) throws -> Transition {
        let before = board.tasks
        try body(&board)
        let event = try #require(board.history.appended.last)
        return Transition(
            from: before.first { $0.id == event.taskID }, to: board.task(event.taskID), eventID: event.id, at: event.at)
    }

    func sample() throws -> (Board, TaskID) {
        var board = Board(id: ids.make())
        let id = ids.make()
        try board.add(title: "Write report", due: CivilDate(iso: "2026-12-01"), id: id, eventID: ids.make(), by: "ji-woo", at: t0)
        try board.add(title: "Other", id: ids.make(), eventID: ids.make(), by: "ji-woo", at: t0)
        return (board, id)
    }

    @Test func undoingAMoveMovesItBackAndRecordsTheMove() throws {
        var (board, id) = try sample()
        let moved = try change(&board) { try $0.move(id, to: .doing, eventID: ids.make(), by: "ji-woo", at: t0) }
        let undone = try board.revert(moved, eventID: ids.make(), by: "ji-woo", at: t1)
        #expect(board.task(id)?.state == .todo)
        #expect(board.task(id)?.updatedAt == t1)
        let event = try #require(board.history.appended.last)
        #expect(event.action == .moved && event.from == .doing && event.to == .todo)
        _ = try board.revert(undone, eventID: ids.make(), by: "ji-woo", at: t1)
        #expect(board.task(id)?.state == .doing)
    }

    @Test func undoingADeleteBringsTheTaskBackWholeInItsPlace() throws {
        var (board, id) = try sample()
        let original = try #require(board.task(id))
        let removed = try change(&board) { try $0.delete(id, eventID: ids.make(), by: "ji-woo", at: t0) }
        #expect(board.task(id) == nil)
        let undone = try board.revert(removed, eventID: ids.make(), by: "ji-woo", at: t1)
        var expected = original
        expected.updatedAt = t1
        #expect(board.tasks.first == expected)
        #expect(board.history.appended.last?.action == .added)
        _ = try board.revert(undone, eventID: ids.make(), by: "ji-woo", at: t1)
        #expect(board.task(id) == nil)
    }

    @Test func undoingAnAddRemovesItAndUndoingAnEditRestoresEveryField() throws {
        var (board, id) = try sample()
        let edited = try change(&board) {
            try $0.edit(id, .init(title: "Renamed", body: "b", due: .some(nil)), eventID: ids.make(), by: "ji-woo", at: t0)
        }
        _ = try board.revert(edited, eventID: ids.make(), by: "ji-woo", at: t1)
        #expect(board.task(id)?.title == "Write report")
        #expect(board.task(id)?.body == "")
        #expect(board.task(id)?.due == CivilDate(iso: "2026-12-01"))
        let newID = ids.make()
        let added = try change(&board) { try $0.add(title: "New", id: newID, eventID: ids.make(), by: "ji-woo", at: t0) }
        _ = try board.revert(added, eventID: ids.make(), by: "ji-woo", at: t1)
        #expect(board.task(newID) == nil)
        #expect(board.history.appended.last?.action == .removed)
    }

    /// pm 0.1 compared whole tasks, `updatedAt` included: every undo wrote a
    /// new `updatedAt`, so a second undo on the same task was always refused.
    @Test func twoUndosOnOneTaskWithAMovingClockBothGoThrough() throws {
        var (board, id) = try sample()
        let renamed = try change(&board) {
            try $0.edit(id, .init(title: "A2"), eventID: ids.make(), by: "ji-woo", at: "2026-11-21T10:00:00.001Z")
        }
        let moved = try change(&board) {
            try $0.move(id, to: .done, eventID: ids.make(), by: "ji-woo", at: "2026-11-21T10:00:00.002Z")
        }
        _ = try board.revert(moved, eventID: ids.make(), by: "ji-woo", at: "2026-11-21T10:00:00.003Z")
        _ = try board.revert(renamed, eventID: ids.make(), by: "ji-woo", at: "2026-11-21T10:00:00.004Z")
        #expect(board.task(id)?.title == "Write report" && board.task(id)?.state == .todo)
    }

    @Test func aColleaguesChangeToTheSameFieldRefusesAndChangesNothing() throws {
        var (board, id) = try sample()
        let moved = try change(&board) { try $0.move(id, to: .doing, eventID: ids.make(), by: "ji-woo", at: t0) }
        try board.move(id, to: .done, eventID: ids.make(), by: "camille", at: t1)
        let before = board
        #expect(throws: PMError.undoConflict(UndoConflict(title: "Write report", by: "camille", at: t1))) {
            try board.revert(moved, eventID: ids.make(), by: "ji-woo", at: t1)
        }
        #expect(board == before)
        #expect(!board.canRevert(moved))
    }

    /// Different fields changed: both changes stand (DESIGN.md §9).
    @Test func aColleaguesChangeToAnotherFieldIsKeptWhenUndoing() throws {
        var (board, id) = try sample()
        let moved = try change(&board) { try $0.move(id, to: .doing, eventID: ids.make(), by: "ji-woo", at: t0) }
        try board.edit(id, .init(title: "Camille's title"), eventID: ids.make(), by: "camille", at: t1)
        #expect(board.canRevert(moved))
        _ = try board.revert(moved, eventID: ids.make(), by: "ji-woo", at: t1)
        #expect(board.task(id)?.state == .todo)
        #expect(board.task(id)?.title == "Camille's title")
    }

    @Test func afterAColleagueRestoresTheFieldExactlyUndoGoesThrough() throws {
        var (board, id) = try sample()
        let moved = try change(&board) { try $0.move(id, to: .doing, eventID: ids.make(), by: "ji-woo", at: t0) }
        try board.move(id, to: .done, eventID: ids.make(), by: "camille", at: t1)
        try board.move(id, to: .doing, eventID: ids.make(), by: "camille", at: t1)
        _ = try board.revert(moved, eventID: ids.make(), by: "ji-woo", at: t1)
        #expect(board.task(id)?.state == .todo)
    }

    @Test func aTaskAColleagueDeletedIsNamedByItsTitleAndTheDeletion() throws {
        var (board, id) = try sample()
        let renamed = try change(&board) { try $0.edit(id, .init(title: "Mine"), eventID: ids.make(), by: "ji-woo", at: t0) }
        try board.delete(id, eventID: ids.make(), by: "camille", at: t1)
        #expect(throws: PMError.undoConflict(UndoConflict(title: "Mine", by: "camille", at: t1, deleted: true))) {
            try board.revert(renamed, eventID: ids.make(), by: "ji-woo", at: t1)
        }
        let added = Transition(
            from: nil, to: BoardTask(id: id, title: "Mine", createdAt: t0, updatedAt: t0), eventID: ids.make(), at: t0)
        #expect(throws: PMError.undoConflict(UndoConflict(title: "Mine", by: "camille", at: t1, deleted: true, redo: true))) {
            try board.revert(added, eventID: ids.make(), by: "ji-woo", at: t1, redo: true)
        }
    }

    /// A crafted step whose two sides are different tasks would write one
    /// task's content into another's place (two tasks with one id).
    @Test func aStepAboutTwoTasksIsNeverApplied() throws {
        var (board, id) = try sample()
        let other = try #require(board.tasks.last)
        let mine = try #require(board.task(id))
        let crafted = Transition(from: other, to: mine, eventID: ids.make(), at: t0)
        #expect(!crafted.isWellFormed)
        let before = board
        #expect(throws: PMError.nothingToUndo) { try board.revert(crafted, eventID: ids.make(), by: "ji-woo", at: t1) }
        #expect(board == before)
    }

    @Test func aNewChangeClearsRedoAndTheStackIsBounded() throws {
        var state = UndoState()
        let some = Transition(
            from: nil, to: BoardTask(id: ids.make(), title: "x", createdAt: t0, updatedAt: t0), eventID: ids.make(), at: t0)
        state.redo = [some]
        state.record([some])
        #expect(state.redo.isEmpty)
        for _ in 0..<(UndoState.depth + 50) { state.record([some]) }
        #expect(state.undo.count == UndoState.depth)
        state.record([])
        #expect(state.undo.count == UndoState.depth)
    }
}

/// The state file: stacks, the pending step, and what it refuses.
@Suite struct UndoStoreTests {
    let ids = CountingIDs()
    let t0 = "2026-11-21T10:00:00.000Z"

    func store(_ dir: TemporaryDirectory, user: String = "ji woo/../x", key: String = "/boards/a.json") -> UndoStore {
        UndoStore(
            stateDirectory: dir.file("state"), boardID: TaskID("00000000-0000-4000-8000-0000000000b0")!, boardKey: key, user: user
        )
    }

    func transition(_ title: String) -> Transition {
        Transition(
            from: nil, to: BoardTask(id: ids.make(), title: title, createdAt: t0, updatedAt: t0), eventID: ids.make(), at: t0)
    }

    @Test func theFileRoundTripsWithAPendingStep() throws {
        let dir = TemporaryDirectory()
        let store = store(dir)
        #expect(try store.load() == UndoStore.Stored())
        let stored = UndoStore.Stored(
            committed: UndoState(undo: [transition("a")], redo: [transition("b")]), pending: .record([transition("c")]))
        try store.save(stored)
        #expect(try store.load() == stored)
        for step in [UndoStep.undone(made: [transition("d")]), .redone(made: [transition("e")]), .skipped] {
            try store.save(UndoStore.Stored(committed: stored.committed, pending: step))
            #expect(try store.load().pending == step)
        }
        #expect(!store.path.contains("/../"))
    }

    /// The pending step counts once its event is on the board, and only then:
    /// a kill between saving the state and saving the board leaves the stacks
    /// as they were.
    @Test func aPendingStepCountsOnlyIfItsEventIsOnTheBoard() throws {
        var board = Board(id: ids.make())
        board.schemaVersion = 1
        let taskID = ids.make()
        let eventID = ids.make()
        try board.add(title: "kept", id: taskID, eventID: eventID, by: "ji-woo", at: t0)
        let reread = try BoardDecoder.decode(BoardEncoder.encode(board), path: "b")
        let landed = Transition(from: nil, to: reread.task(taskID), eventID: eventID, at: t0)
        let older = transition("older")
        let stored = UndoStore.Stored(committed: UndoState(undo: [older]), pending: .record([landed]))
        #expect(stored.resolved(against: reread).undo == [older, landed])
        let lost = UndoStore.Stored(committed: UndoState(undo: [older]), pending: .record([transition("never saved")]))
        #expect(lost.resolved(against: reread).undo == [older])
        #expect(reread.history.contains(eventID: eventID))
        #expect(!reread.history.contains(eventID: taskID), "a task id is not an event id")
    }

    @Test(arguments: [
        "{ not json", "{\"undo\": [], \"redo\": []} trailing", "{\"undo\": [], \"undo\": [], \"redo\": []}",
        "{\"undo\": [{\"at\": \"x\", \"at\": \"y\", \"event\": \"00000000-0000-4000-8000-000000000001\", \"from\": null, \"to\": null}]}",
        "{\"pending\": {\"step\": \"bogus\", \"transitions\": []}}",
    ])
    func aDamagedOrCraftedFileIsRefused(_ text: String) throws {
        let dir = TemporaryDirectory()
        let store = store(dir)
        try store.save(UndoStore.Stored())
        try Data(text.utf8).write(to: URL(fileURLWithPath: store.path))
        do {
            _ = try store.load()
            Issue.record("\(text) was read")
        } catch PMError.stateCorrupt(let path, let line, let column, let reason, _) {
            #expect(path == store.path && line == 1 && column != nil && reason != nil, "\(text)")
            if text.contains("\"undo\": [], \"undo\"") { #expect(reason == .duplicateKey("undo")) }
        }
    }

    @Test func aStepAboutTwoTasksInTheFileIsRefused() throws {
        let dir = TemporaryDirectory()
        let store = store(dir)
        let a = BoardTask(id: ids.make(), title: "a", createdAt: t0, updatedAt: t0)
        let b = BoardTask(id: ids.make(), title: "b", createdAt: t0, updatedAt: t0)
        try store.save(UndoStore.Stored(committed: UndoState(undo: [Transition(from: a, to: b, eventID: ids.make(), at: t0)])))
        #expect(throws: PMError.self) { try store.load() }
    }

    /// A saved view's change round-trips with its filters, and a file that
    /// makes one about a task too, about no view, or about a name or filter
    /// pm would not keep, is refused (undo must never write it to the board).
    @Test func aViewStepRoundTripsAndACraftedOneIsRefused() throws {
        let dir = TemporaryDirectory()
        let store = store(dir)
        var filter = ViewFilter()
        filter.labels = ["bug"]
        filter.overdue = true
        let saved = Transition(view: ViewTransition(name: "mine", from: nil, to: filter), eventID: ids.make(), at: t0)
        let deleted = Transition(view: ViewTransition(name: "mine", from: filter, to: nil), eventID: ids.make(), at: t0)
        let stored = UndoStore.Stored(committed: UndoState(undo: [transition("a"), saved]), pending: .record([deleted]))
        try store.save(stored)
        #expect(try store.load() == stored)
        #expect(saved.taskID == SavedView.eventTask("mine"))
        let text = try String(contentsOfFile: store.path, encoding: .utf8)
        let event = "\"event\": \"00000000-0000-4000-8000-000000000001\""
        for view in [
            "{\"name\": \"mine\", \"from\": null, \"to\": null}",
            "{\"name\": \"a,b\", \"from\": null, \"to\": {}}",
            "{\"name\": \"mine\", \"from\": null, \"to\": {\"sort\": \"random\"}}",
            "{\"name\": \"mine\", \"from\": 3, \"to\": {}}", "[]",
        ] {
            let crafted = "{\"undo\": [{\"at\": \"\(t0)\", \(event), \"from\": null, \"to\": null, \"view\": \(view)}]}"
            try Data(crafted.utf8).write(to: URL(fileURLWithPath: store.path))
            #expect(throws: PMError.self, "\(view)") { try store.load() }
        }
        var both = saved
        both.to = BoardTask(id: ids.make(), title: "a", createdAt: t0, updatedAt: t0)
        #expect(!both.isWellFormed, "one change is about a task or a view, never both")
        #expect(text.contains("\"view\""))
    }

    @Test func aSymlinkOrADirectoryInItsPlaceIsRefusedNeverFollowed() throws {
        let dir = TemporaryDirectory()
        let store = store(dir)
        try store.save(UndoStore.Stored())
        try FileManager.default.removeItem(atPath: store.path)
        dir.write("victim", "precious")
        try FileManager.default.createSymbolicLink(atPath: store.path, withDestinationPath: dir.file("victim"))
        #expect(throws: PMError.unsafeFile(path: store.path)) { try store.load() }
        try FileManager.default.removeItem(atPath: store.path)
        try FileManager.default.createDirectory(atPath: store.path, withIntermediateDirectories: false)
        #expect(throws: PMError.unsafeFile(path: store.path)) { try store.load() }
        #expect(dir.read("victim") == Data("precious".utf8))
    }

    /// Two copies of one board (same id, other paths), and user names that
    /// differ only far in or only in case, never share a file.
    @Test func copiesAndLongOrCaseDifferentNamesNeverShareAFile() {
        let dir = TemporaryDirectory()
        #expect(store(dir, key: "/a/board.json").path != store(dir, key: "/b/board.json").path)
        let long = String(repeating: "x", count: 300)
        #expect(store(dir, user: long + "1").path != store(dir, user: long + "2").path)
        #expect(store(dir, user: "Alice").path.lowercased() != store(dir, user: "alice").path.lowercased())
        let name = store(dir, user: long).path.split(separator: "/").last ?? ""
        #expect(name.utf8.count < 200, "a file name fits every file system")
    }
}

/// Random sequences of every kind of change by two people, with the live
/// clock and steps microseconds apart, checked against what undo promises.
@Suite struct UndoPropertyTests {
    /// What a task shows, without timestamps.
    struct Content: Equatable {
        var title: String, body: String, due: CivilDate?, state: TaskState
        init(_ task: BoardTask) { (title, body, due, state) = (task.title, task.body, task.due, task.state) }
    }

    static func contents(_ board: Board) -> [TaskID: Content] {
        Dictionary(uniqueKeysWithValues: board.tasks.map { ($0.id, Content($0)) })
    }

    static func liveNow() -> String { Timestamp.string(from: Date()) }

    /// One random change by `user`; returns its transition, or nil when it changed nothing.
    static func randomChange(_ board: inout Board, by user: String, _ rng: inout SeededGenerator, ids: CountingIDs) throws
        -> Transition?
    {
        let before = board.tasks
        let known = board.history.appended.count
        let target = board.tasks.randomElement(using: &rng)?.id
        switch (Int.random(in: 0..<6, using: &rng), target) {
        case (0, _), (_, nil):
            try board.add(
                title: "t\(Int.random(in: 0..<1000, using: &rng))", id: ids.make(), eventID: ids.make(), by: user, at: liveNow())
        case (1, let id?):
            try board.edit(
                id, .init(title: "r\(Int.random(in: 0..<4, using: &rng))"), eventID: ids.make(), by: user, at: liveNow())
        case (2, let id?):
            try board.edit(
                id, .init(body: "b\(Int.random(in: 0..<4, using: &rng))"), eventID: ids.make(), by: user, at: liveNow())
        case (3, let id?):
            let due = Bool.random(using: &rng) ? nil : CivilDate(year: 2026, month: 12, day: Int.random(in: 1...3, using: &rng))
            try board.edit(id, .init(due: .some(due)), eventID: ids.make(), by: user, at: liveNow())
        case (4, let id?):
            try board.move(
                id, to: TaskState.allCases.randomElement(using: &rng) ?? .done, eventID: ids.make(), by: user, at: liveNow())
        case (_, let id?):
            try board.delete(id, eventID: ids.make(), by: user, at: liveNow())
        }
        guard let event = board.history.appended.dropFirst(known).last else { return nil }
        return Transition(
            from: before.first { $0.id == event.taskID }, to: board.task(event.taskID), eventID: event.id, at: event.at)
    }

    /// One person alone: N changes, then N undos, bring back every earlier
    /// board step by step; N redos bring back every later one. Never refused.
    @Test(arguments: 0..<40)
    func aloneEveryUndoAndRedoRetracesTheSteps(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let ids = CountingIDs()
        var board = Board(id: ids.make())
        var state = UndoState()
        var snapshots = [Self.contents(board)]
        for _ in 0..<20 {
            if let transition = try Self.randomChange(&board, by: "ji-woo", &rng, ids: ids) {
                state.record([transition])
                snapshots.append(Self.contents(board))
            }
        }
        for expected in snapshots.dropLast().reversed() {
            let last = try #require(state.undo.last)
            let made = try board.revert(last, eventID: ids.make(), by: "ji-woo", at: Self.liveNow())
            state.apply(.undone(made: [made]))
            #expect(Self.contents(board) == expected, "seed \(seed)")
        }
        #expect(state.undo.isEmpty)
        for expected in snapshots.dropFirst() {
            let last = try #require(state.redo.last)
            let made = try board.revert(last, eventID: ids.make(), by: "ji-woo", at: Self.liveNow(), redo: true)
            state.apply(.redone(made: [made]))
            #expect(Self.contents(board) == expected, "seed \(seed)")
        }
    }

    /// Two people interleaved: an undo either reverts exactly the fields its
    /// change set (keeping the colleague's other changes), or is refused
    /// because the colleague changed one of those fields, changing nothing.
    @Test(arguments: 0..<40)
    func withAColleagueUndoRevertsItsFieldsOrRefusesForAReason(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed &+ 1000)
        let ids = CountingIDs()
        var board = Board(id: ids.make())
        var mine = UndoState()
        for _ in 0..<30 {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                if let transition = try Self.randomChange(&board, by: "ji-woo", &rng, ids: ids) { mine.record([transition]) }
            case 1:
                _ = try Self.randomChange(&board, by: "camille", &rng, ids: ids)
            default:
                guard let step = mine.undo.last, let id = step.taskID else { continue }
                let before = board
                do {
                    let made = try board.revert(step, eventID: ids.make(), by: "ji-woo", at: Self.liveNow())
                    mine.apply(.undone(made: [made]))
                    let now = board.task(id)
                    if let from = step.from {
                        let restored = try #require(now, "seed \(seed)")
                        for field in step.fields {
                            #expect(Self.value(field, restored) == Self.value(field, from), "seed \(seed)")
                        }
                        let current = before.task(id) ?? restored
                        for field in TaskField.allCases where !step.fields.contains(field) {
                            #expect(
                                Self.value(field, restored) == Self.value(field, current),
                                "seed \(seed): a colleague's field was lost")
                        }
                    } else {
                        #expect(now == nil, "seed \(seed)")
                    }
                } catch PMError.undoConflict {
                    #expect(board == before, "seed \(seed): a refusal changed the board")
                    #expect(!before.canRevert(step))
                    if let current = before.task(id), let after = step.to {
                        #expect(step.fields.contains { Self.value($0, current) != Self.value($0, after) }, "seed \(seed)")
                    }
                    mine.apply(.skipped)
                }
            }
        }
    }

    static func value(_ field: TaskField, _ task: BoardTask) -> String {
        switch field {
        case .title: return task.title
        case .body: return task.body
        case .due: return task.due?.description ?? "-"
        case .state: return task.state.rawValue
        }
    }
}
