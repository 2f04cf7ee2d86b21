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

    @Test func aChangeBySomeoneElseSinceMakesUndoRefuseAndChangeNothing() throws {
        var (board, id) = try sample()
        let moved = try change(&board) { try $0.move(id, to: .doing, eventID: ids.make(), by: "ji-woo", at: t0) }
        try board.edit(id, .init(title: "Camille's title"), eventID: ids.make(), by: "camille", at: t1)
        let before = board
        #expect(throws: PMError.undoConflict(title: "Camille's title", by: "camille", at: t1)) {
            try board.revert(moved, eventID: ids.make(), by: "ji-woo", at: t1)
        }
        #expect(board == before)
    }

    @Test func aNewChangeClearsRedoAndTheStackIsBounded() throws {
        var state = UndoState()
        let some = Transition(from: nil, to: nil, eventID: ids.make(), at: t0)
        state.redo = [some]
        state.record([some])
        #expect(state.redo.isEmpty)
        for _ in 0..<(UndoState.depth + 50) { state.record([some]) }
        #expect(state.undo.count == UndoState.depth)
        state.record([])
        #expect(state.undo.count == UndoState.depth)
    }

    @Test func theStateFileRoundTripsAndADamagedOneIsRefused() throws {
        let dir = TemporaryDirectory()
        var (board, id) = try sample()
        let moved = try change(&board) { try $0.move(id, to: .done, eventID: ids.make(), by: "ji-woo", at: t0) }
        let store = UndoStore(stateDirectory: dir.file("state"), boardID: board.id, user: "ji woo/../x")
        #expect(try store.load() == UndoState())
        let state = UndoState(undo: [moved], redo: [Transition(from: board.task(id), to: nil, eventID: ids.make(), at: t1)])
        try store.save(state)
        #expect(try store.load() == state)
        #expect(!store.path.contains("/../"))
        dir.write("state/" + String(store.path.split(separator: "/").last ?? ""), "{ not json")
        #expect(throws: PMError.stateCorrupt(path: store.path)) { try store.load() }
    }

    @Test func recentEventsDecodeOnlyTheNewestNewestFirst() throws {
        var (board, id) = try sample()
        try board.move(id, to: .doing, eventID: ids.make(), by: "x", at: t1)
        let reread = try BoardDecoder.decode(BoardEncoder.encode(board), path: "b")
        var reboard = reread
        try reboard.move(id, to: .done, eventID: ids.make(), by: "y", at: t1)
        let recent = try reboard.history.recentEvents(limit: 2)
        #expect(recent.map(\.action) == [.moved, .moved])
        #expect(recent.map(\.to) == [.done, .doing])
        #expect(try reboard.history.recentEvents(limit: 100).count == 4)
        #expect(try reboard.history.count() == 4)
    }
}
