import Foundation
import PMCore
import PMTestSupport
import Testing

/// A step of several tasks (an import): undone, redone, skipped and kept as one.
@Suite struct UndoBatchTests {
    let ids = CountingIDs()
    let t0 = "2026-11-21T10:00:00.000Z"

    func added(_ title: String, batch: TaskID?) -> Transition {
        Transition(
            from: nil, to: BoardTask(id: ids.make(), title: title, createdAt: t0, updatedAt: t0), eventID: ids.make(), at: t0,
            batch: batch)
    }

    @Test func aBatchIsOneStepForUndoRedoAndSkip() {
        let single = added("alone", batch: nil)
        let batch = ids.make()
        let imported = (0..<3).map { added("card \($0)", batch: batch) }
        var state = UndoState()
        state.record([single])
        state.record(imported)
        #expect(Array(state.nextUndo) == imported)
        let undoneBatch = ids.make()
        let made = (0..<3).map { added("undone \($0)", batch: undoneBatch) }
        state.apply(.undone(made: made))
        #expect(state.undo == [single] && state.redo == made)
        #expect(Array(state.nextRedo) == made)
        state.apply(.redone(made: imported))
        #expect(state.undo == [single] + imported && state.redo.isEmpty)
        state.apply(.skipped)
        #expect(state.undo == [single], "a skip drops the whole step")
        // Two batches side by side stay two steps.
        let other = ids.make()
        let second = (0..<2).map { added("second \($0)", batch: other) }
        state.record(imported)
        state.record(second)
        #expect(Array(state.nextUndo) == second)
    }

    @Test func theDepthDropsOldStepsWholeAndKeepsALargeNewOne() {
        var state = UndoState()
        let old = ids.make()
        state.record((0..<150).map { added("old \($0)", batch: old) })
        for index in 0..<60 { state.record([added("single \(index)", batch: nil)]) }
        // 210 transitions: the old batch goes whole, never cut in the middle.
        #expect(state.undo.count == 60 && state.undo.allSatisfy { $0.batch == nil })
        let big = ids.make()
        let large = (0..<500).map { added("import \($0)", batch: big) }
        state.record(large)
        #expect(state.undo == large, "an import larger than the depth stays whole")
    }

    @Test func theStateFileKeepsTheBatch() throws {
        let dir = TemporaryDirectory()
        let store = UndoStore(
            stateDirectory: dir.path, boardID: ids.make(), boardKey: "/x/board.json", user: "ji-woo")
        let batch = ids.make()
        let step = (0..<3).map { added("card \($0)", batch: batch) }
        var committed = UndoState()
        committed.record(step)
        let stored = UndoStore.Stored(committed: committed, pending: .undone(made: step), pendingOffset: 12)
        try store.save(stored)
        #expect(try store.load() == stored)
    }

    @Test func importedIDsAreTheSameForTheSameBoardAndCardOnly() {
        let board = ids.make()
        let a = ImportRules.taskID(board: board, source: .trello, sourceID: "6543000a")
        #expect(a == ImportRules.taskID(board: board, source: .trello, sourceID: "6543000a"))
        #expect(a != ImportRules.taskID(board: ids.make(), source: .trello, sourceID: "6543000a"))
        #expect(a != ImportRules.taskID(board: board, source: .csv, sourceID: "6543000a"))
        #expect(a.rawValue.dropFirst(14).first == "8", "version 8: \(a)")
        #expect("89ab".contains(a.rawValue.dropFirst(19).first ?? "x"), "RFC 9562 variant: \(a)")
    }
}
