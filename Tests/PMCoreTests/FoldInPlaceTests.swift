import PMCore
import PMTestSupport
import Testing

/// A change and a reader fold the log's tail into the saved tasks in place
/// (`FoldedTasks.apply`), touching only the tasks named; that must always be
/// the board a fold of every event from the start gives.
@Suite struct FoldInPlaceTests {
    /// Random histories of one copy, cut at random points: the tail applied
    /// in place to the fold of the head is the fold of the whole.
    @Test(arguments: [1, 2, 3, 4, 5])
    func theTailFoldedInPlaceIsTheWholeFold(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var copy = SimulatedReplica(number: 1, author: "ana")
        var live: [TaskID] = []
        for step in 0..<400 {
            let roll = Int.random(in: 0..<10, using: &random)
            if roll < 4 || live.isEmpty {
                if let id = copy.add("task \(step)") { live.append(id) }
            } else if roll < 6 {
                copy.move(live.randomElement(using: &random)!, to: TaskState.allCases.randomElement(using: &random)!)
            } else if roll < 7 {
                copy.edit(live.randomElement(using: &random)!, Board.Edit(title: "renamed \(step)"))
            } else if roll < 9 {
                let index = Int.random(in: 0..<live.count, using: &random)
                copy.delete(live.remove(at: index))
            } else if copy.undo() != nil {
                live = copy.tasks.map(\.id)
            }
        }
        let events = copy.events
        let whole = FoldedTasks.fold(events).ordered
        var inPlace = 0
        for _ in 0..<40 {
            let cut = Int.random(in: 1..<events.count, using: &random)
            let folded = FoldedTasks.fold(events[..<cut])
            let head = folded.ordered
            var tasks = head
            var ledger: ReplicaLedger? = folded.ledger
            if FoldedTasks.apply(Array(events[cut...]), to: &tasks, last: EventOrder(events[cut - 1]), ledger: &ledger) {
                inPlace += 1
                #expect(tasks == whole, "cut at \(cut) of \(events.count): \(tasks.count) tasks, \(whole.count) in the fold")
                #expect(ledger == FoldedTasks.fold(events).ledger)
            } else {
                // A task brought back from before the cut (an undone
                // delete) needs what only the whole log knows: refused, untouched.
                #expect(tasks == head, "refused, yet changed")
            }
        }
        #expect(inPlace > 10, "most tails fold in place")
    }

    /// Many tasks removed at once (more than the few removed one by one),
    /// next to tasks changed in place and tasks added: the same board.
    @Test func manyRemovedAtOnceLeaveTheRestInOrder() {
        var copy = SimulatedReplica(number: 2, author: "ji-woo")
        let ids = (0..<300).compactMap { copy.add("task \($0)") }
        let cut = copy.events.count
        for (index, id) in ids.enumerated() {
            switch index % 3 {
            case 0: copy.delete(id)
            case 1: copy.move(id, to: .done)
            default: continue
            }
        }
        for index in 0..<5 { copy.add("late \(index)") }
        let events = copy.events
        var tasks = FoldedTasks.fold(events[..<cut]).ordered
        var ledger: ReplicaLedger? = ReplicaLedger.of(events[..<cut])
        #expect(FoldedTasks.apply(Array(events[cut...]), to: &tasks, last: EventOrder(events[cut - 1]), ledger: &ledger))
        #expect(tasks.map(\.id) == FoldedTasks.fold(events).ordered.map(\.id))
        #expect(tasks == FoldedTasks.fold(events).ordered)
        #expect(tasks.count == 205)
        #expect(tasks.filter { $0.state == .done }.count == 100)
    }
}
