import PMTestSupport
import Testing

@testable import PMCore

/// Who each copy of a board is, and which copies the board takes (issue 43,
/// item 9): rules of the fold, so every copy with the same events agrees,
/// whatever order they arrived in and however they were folded.
@Suite struct ReplicaLedgerTests {
    /// An older teammate (unsigned) from before keys, a signing teammate,
    /// and an unsigned copy that first writes after signing began (a forger
    /// writing a file under a name-based id, or a pm from before keys that
    /// joins late).
    static func team() -> (events: [Event], older: SimulatedReplica, late: SimulatedReplica, first: TaskID) {
        var older = SimulatedReplica(number: 1, author: "old-timer")
        let first = older.add("From before keys")!
        var signing = SimulatedReplica(number: 2, author: "ana", wall: older.wall + 10_000, signed: true)
        signing.receive(older.events)
        signing.add("Signed")
        var late = SimulatedReplica(number: 3, author: "ana", wall: signing.wall + 10_000)
        late.receive(older.events + signing.events)
        late.add("Forged as ana")
        late.edit(first, Board.Edit(title: "Renamed by a forger"))
        older.wall = late.wall + 10_000
        older.receive(signing.events)
        older.edit(first, Board.Edit(body: "Still taken after signing began"))
        return (older.events + signing.events + late.events, older, late, first)
    }

    @Test func anUnsignedCopyNewAfterSigningChangesNothingInAnyOrder() {
        let (events, older, late, first) = Self.team()
        var random = SeededGenerator(seed: 43)
        for _ in 0..<30 {
            let folded = FoldedTasks.fold(events.shuffled(using: &random))
            #expect(folded.ordered.map(\.title).sorted() == ["From before keys", "Signed"])
            #expect(folded.byID[first]?.body == "Still taken after signing began")
            #expect(!folded.ledger.takes(late.replica) && folded.ledger.takes(older.replica))
            #expect(folded.ledger.setAside == [late.replica])
            #expect(folded.ledger == ReplicaLedger.of(events))
        }
    }

    /// From a saved board (a checkpoint at any point), the tail folds to the
    /// same tasks and the same ledger as the whole log, and the ledger
    /// survives the board file.
    @Test func aCheckpointAnywhereComesToTheSameLedger() throws {
        let ordered = FoldedTasks.inMergeOrder(Self.team().events)
        let whole = FoldedTasks.fold(ordered)
        for cut in 1..<ordered.count {
            let head = FoldedTasks.fold(ordered[..<cut])
            var board = Board(id: TaskID("00c0ffee-0000-4000-8000-00000000b0a4")!)
            board.tasks = head.ordered
            board.log = LogPosition(events: cut, length: 0, newest: ordered[cut - 1], replicas: head.ledger)
            let reread = try BoardDecoder.decode(BoardEncoder.encode(board), path: "b")
            #expect(reread.log.replicas == head.ledger, "cut \(cut)")
            var tasks = reread.tasks
            var ledger = reread.log.replicas
            #expect(FoldedTasks.apply(Array(ordered[cut...]), to: &tasks, last: reread.log.order, ledger: &ledger))
            #expect(tasks.map(\.title) == whole.ordered.map(\.title) && ledger == whole.ledger, "cut \(cut)")
        }
        // A board file without a ledger (an older pm wrote it) is folded again whole.
        var tasks = whole.ordered
        var none: ReplicaLedger?
        #expect(
            !FoldedTasks.apply(Array(ordered.suffix(1)), to: &tasks, last: EventOrder(ordered[ordered.count - 2]), ledger: &none))
    }

    /// A signed copy's person is the author of its first change: a later
    /// change signed with the same key that names someone else says whose
    /// copy it came from.
    @Test func aKeyThatNamesSomeoneElseSaysWhoseCopyItIs() {
        var mallory = SimulatedReplica(number: 4, author: "mallory", signed: true)
        let id = mallory.add("Hers")!
        var asAlice = SimulatedReplica(number: 4, author: "alice", wall: mallory.wall + 1_000, signed: true)
        asAlice.receive(mallory.events)
        let forged = asAlice.edit(id, Board.Edit(title: "Signed by her key, naming alice"))!
        #expect(forged.replica == mallory.replica && EventSeal.isValid(forged))
        // Arriving first or last, the copy's first change decides.
        for events in [asAlice.events, Array(asAlice.events.reversed())] {
            let ledger = ReplicaLedger.of(events)
            #expect(ledger.entries[mallory.replica]?.person == "mallory")
            #expect(ledger.otherPerson(of: forged) == "mallory")
            #expect(ledger.otherPerson(of: mallory.events[0]) == nil)
        }
    }
}
