import Foundation
import PMCore
import PMTestSupport
import Testing

/// The board is a function of the set of its events (issue 43, item 5):
/// generated team histories — several copies adding, importing the same
/// cards again after deleting them, editing, moving, assigning, undoing and
/// syncing at random — folded whole, and folded from a checkpoint at every
/// point of every copy's arrival order, give the same bytes.
///
/// CI runs a few hundred histories; `PM_FOLD_HISTORIES=100000 swift test
/// --filter FoldPurity` runs as many as asked.
@Suite struct FoldPurityPropertyTests {
    static let histories = Int(ProcessInfo.processInfo.environment["PM_FOLD_HISTORIES"] ?? "") ?? 300

    /// The board file's bytes for `tasks` (the log position left out: it is
    /// the same for the same events).
    static func bytes(_ tasks: [BoardTask]) -> [UInt8] {
        var board = Board(id: TaskID("00c0ffee-0000-4000-8000-00000000b0a4")!)
        board.tasks = tasks
        return BoardEncoder.encode(board)
    }

    /// One generated history: every copy's events, in the order each received them.
    static func history(seed: UInt64) -> [[Event]] {
        var random = SeededGenerator(seed: seed)
        let names = ["ana", "ji-woo", "lee"]
        var copies = (1...3).map { SimulatedReplica(number: $0, author: names[$0 - 1], wall: 1_795_000_000_000 + Int64($0) * 7) }
        // Ids an import derives: the same card, the same id, on every copy.
        let imported = (1...4).map { TaskID("1e000000-0000-4000-8000-00000000000\($0)")! }
        let steps = Int.random(in: 8..<40, using: &random)
        for step in 0..<steps {
            let who = Int.random(in: 0..<copies.count, using: &random)
            // Clocks drift apart a little, sometimes backwards.
            copies[who].wall += Int64.random(in: -1_500...3_000, using: &random)
            let live = copies[who].tasks.map(\.id)
            let target = live.randomElement(using: &random)
            switch Int.random(in: 0..<12, using: &random) {
            case 0: copies[who].add("task \(step)")
            case 1, 2:
                let id = imported.randomElement(using: &random)!
                copies[who].add("card \(id.rawValue.suffix(1))", id: id, assignees: step % 2 == 0 ? [names[who]] : [])
            case 3: if let target { copies[who].edit(target, Board.Edit(title: "renamed \(step % 3)")) }
            case 4: if let target { copies[who].edit(target, Board.Edit(body: "body \(step % 2)", due: .some(nil))) }
            case 5: if let target { copies[who].move(target, to: TaskState.allCases.randomElement(using: &random)!) }
            case 6: if let target { copies[who].assign(target, [names.randomElement(using: &random)!]) }
            case 7: if let target { copies[who].assign(target, unassign: names) }
            case 8, 9: if let target { copies[who].delete(target) }
            case 10: copies[who].undo()
            default:
                // A sync: some of another copy's events arrive (a whole prefix, as segments do).
                let from = Int.random(in: 0..<copies.count, using: &random)
                let count = Int.random(in: 0...copies[from].events.count, using: &random)
                copies[who].receive(copies[from].events.prefix(count))
            }
        }
        // In the end every copy has every event, in its own order.
        for index in copies.indices {
            for other in copies.indices.shuffled(using: &random) { copies[index].receive(copies[other].events) }
        }
        return copies.map(\.events)
    }

    @Test func everyFoldOfTheSameEventsGivesTheSameBytes() {
        var incremental = 0
        var histories = 0
        for seed in 0..<UInt64(Self.histories) {
            let orders = Self.history(seed: seed)
            let whole = Self.bytes(FoldedTasks.fold(orders[0]).ordered)
            for order in orders {
                let reversed = Self.bytes(FoldedTasks.fold(order.reversed()).ordered) == whole
                #expect(reversed, "seed \(seed): arrival order")
                // A checkpoint after every prefix of the arrival order, then
                // the rest: folded in place when it comes after it in merge
                // order (else pm folds everything again, which is the whole fold).
                for cut in 1..<max(1, order.count) {
                    let head = FoldedTasks.fold(order[..<cut])
                    let tail = FoldedTasks.inMergeOrder(order[cut...]).filter { event in
                        !order[..<cut].contains { $0.id == event.id }
                    }
                    guard let first = tail.first, let last = head.last, last < EventOrder(first) else { continue }
                    var tasks = head.ordered
                    var ledger: ReplicaLedger? = head.ledger
                    guard FoldedTasks.apply(tail, to: &tasks, last: last, ledger: &ledger) else { continue }
                    incremental += 1
                    let same = Self.bytes(tasks) == whole && ledger == FoldedTasks.fold(order).ledger
                    #expect(same, "seed \(seed): checkpoint after \(cut) of \(order.count)")
                    if !same { return }
                }
            }
            histories += 1
        }
        #expect(histories == Self.histories)
        #expect(incremental > Self.histories, "most checkpoints fold their tail in place: \(incremental)")
    }

    /// The case found by hand: a card imported, assigned, deleted, then
    /// imported again (the same id) — from a checkpoint between the deletion
    /// and the second import, as from the start.
    @Test func aCardImportedAgainAfterItsDeletionIsOneCardWhateverTheFold() {
        var copy = SimulatedReplica(number: 1, author: "ana")
        let id = TaskID("1e000000-0000-4000-8000-000000000001")!
        copy.add("card", id: id, assignees: ["ana"])
        copy.assign(id, ["lee"])
        copy.delete(id)
        let cut = copy.events.count
        copy.add("card", id: id)
        let events = copy.events
        let whole = FoldedTasks.fold(events).ordered
        #expect(whole.first?.assignees == [])
        var tasks = FoldedTasks.fold(events[..<cut]).ordered
        var ledger: ReplicaLedger? = ReplicaLedger.of(events[..<cut])
        #expect(FoldedTasks.apply(Array(events[cut...]), to: &tasks, last: EventOrder(events[cut - 1]), ledger: &ledger))
        let same = Self.bytes(tasks) == Self.bytes(whole)
        #expect(same)
    }
}
