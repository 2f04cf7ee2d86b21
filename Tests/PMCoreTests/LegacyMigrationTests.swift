import Foundation
import PMTestSupport
import Testing

@testable import PMCore

/// A schema-1 board's history becomes log events that alone rebuild every
/// task exactly and read back as the same history.
@Suite struct LegacyMigrationTests {
    let replica = TaskID("0000000a-0000-4000-8000-00000000000a")!

    /// Migrates `board` as read from its file, and checks both promises.
    func expectRoundTrip(_ board: Board, _ note: String = "") throws {
        let reread = try BoardDecoder.decode(BoardEncoder.encode(board), path: "b")
        let ids = CountingIDs(prefix: "bbbbbbbb")
        let events = try LegacyMigration.events(for: reread, replica: replica, makeID: { ids.make() })
        var folded = FoldedTasks()
        folded.apply(events)
        #expect(
            folded.ordered.shown == reread.tasks.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }.shown, "\(note): tasks")
        let history = events.compactMap(HistoryEvent.init)
        #expect(history == (try reread.history.events()), "\(note): history")
        // The past is the team's, not this copy's: it binds no person to it (issue 43, item 9).
        #expect(ReplicaLedger.of(events).entries[replica]?.person == nil, "\(note): a person bound by the past")
        // Every event survives its own line.
        for event in events {
            let line = EventCodec.line(event)
            let back = try line.withUnsafeBufferPointer { buffer -> Event in
                var reader = JSONReader(UnsafeBufferPointer(rebasing: buffer[0..<(buffer.count - 1)]))
                return try EventCodec.decode(&reader)
            }
            #expect(back == event, "\(note): line")
        }
    }

    @Test func everyKindOfChangeIncludingUndoRebuildsTheSameBoard() throws {
        let ids = CountingIDs()
        var board = Board(id: ids.make())
        let a = ids.make()
        let b = ids.make()
        try board.add(
            title: "Write report", body: "numbers", due: CivilDate(iso: "2026-12-01"), id: a, eventID: ids.make(), by: "ji-woo",
            at: "2026-11-21T10:00:00.000Z")
        try board.add(title: "디자인 검토", id: b, eventID: ids.make(), by: "camille", at: "2026-11-21T10:00:01.000Z")
        try board.edit(
            a, .init(title: "Renamed", body: "more", due: .some(nil)), eventID: ids.make(), by: "ji-woo",
            at: "2026-11-21T10:01:00.000Z")
        let moved = try board.move(a, to: .doing, eventID: ids.make(), by: "ji-woo", at: "2026-11-21T10:02:00.000Z")
        let before = board.tasks
        try board.delete(b, eventID: ids.make(), by: "camille", at: "2026-11-21T10:03:00.000Z")
        let deletion = Transition(from: before.first { $0.id == b }, to: nil, eventID: ids.make(), at: "2026-11-21T10:03:00.000Z")
        _ = try board.revert(deletion, eventID: ids.make(), by: "camille", at: "2026-11-21T10:04:00.000Z")
        let move = Transition(from: moved.before, to: moved.after, eventID: ids.make(), at: "2026-11-21T10:02:00.000Z")
        _ = try board.revert(move, eventID: ids.make(), by: "ji-woo", at: "2026-11-21T10:05:00.000Z")
        board.tasks[0].unknownFields["labels"] = .array([.string("v1")])
        try expectRoundTrip(board, "every kind")
    }

    /// Hand-made tasks with no history, or a history that does not explain
    /// them, get baseline events that history does not show.
    @Test func tasksTheHistoryCannotExplainGetABaseline() throws {
        let sample = PMBinary.sampleBoard
        let board = try BoardDecoder.decode(Array(sample), path: "sample")
        try expectRoundTrip(board, "sample board")
        var trimmed = board
        trimmed.history = HistoryLog()
        try expectRoundTrip(trimmed, "no history at all")
    }

    /// Random sequences of changes by two people: the events always rebuild
    /// the board and its history.
    @Test(arguments: 0..<25)
    func randomBoardsMigrateExactly(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed &* 104_729)
        let ids = CountingIDs()
        var board = Board(id: ids.make())
        var minute = 0
        func now() -> String {
            minute += 1
            return "2026-11-21T\(10 + minute / 60):\(String(format: "%02d", minute % 60)):00.000Z"
        }
        for _ in 0..<30 {
            let user = ["ji-woo", "camille"].randomElement(using: &rng)!
            let target = board.tasks.randomElement(using: &rng)?.id
            switch (Int.random(in: 0..<5, using: &rng), target) {
            case (0, _), (_, nil):
                try board.add(
                    title: "t\(Int.random(in: 0..<99, using: &rng))", body: Bool.random(using: &rng) ? "b" : "",
                    due: Bool.random(using: &rng) ? CivilDate(iso: "2026-12-0\(Int.random(in: 1...9, using: &rng))") : nil,
                    id: ids.make(), eventID: ids.make(), by: user, at: now())
            case (1, let id?):
                try board.edit(
                    id, .init(title: "r\(Int.random(in: 0..<9, using: &rng))", body: "x"), eventID: ids.make(), by: user,
                    at: now())
            case (2, let id?):
                try board.edit(
                    id, .init(due: .some(Bool.random(using: &rng) ? nil : CivilDate(iso: "2027-01-01"))), eventID: ids.make(),
                    by: user, at: now())
            case (3, let id?):
                try board.move(id, to: TaskState.allCases.randomElement(using: &rng)!, eventID: ids.make(), by: user, at: now())
            case (_, let id?):
                try board.delete(id, eventID: ids.make(), by: user, at: now())
            }
        }
        try expectRoundTrip(board, "seed \(seed)")
    }
}

extension PMBinary {
    static var sampleBoard: Data {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? Data(contentsOf: root.appendingPathComponent("Resources/sample-board.json"))) ?? Data()
    }
}

/// A name for the sample board's location in this target.
enum PMBinary {}
