import Foundation
import PMCore
import PMTestSupport
import Testing

/// `pm history` after syncs (DESIGN.md §9): newest first in merge order,
/// the same on every copy whatever order the events arrived in, and still
/// read from the log's end, not the whole log, for a few entries.
@Suite struct HistoryOrderTests {
    /// One copy of a board in its own folder, with its own replica.
    struct Copy {
        let folder = TemporaryDirectory()
        let replica: TaskID
        let store: BoardStore

        init(replica: TaskID, fileSystem: FileSystem = PosixFileSystem()) {
            self.replica = replica
            // A real wait: a process another test forks may hold the lock for a moment.
            store = BoardStore(path: folder.file("board.json"), fileSystem: fileSystem, sleep: { usleep(useconds_t($0 * 1000)) })
        }

        var log: [Event] { (try? store.eventLog().readAll().events) ?? [] }

        /// Adds a task at `minute` past 10:00 (the event's clock).
        func add(_ title: String, minute: Int, ids: CountingIDs, board: TaskID) throws {
            let at = Timestamp.string(from: Date(timeIntervalSince1970: 1_795_600_000 + Double(minute) * 60))
            _ = try store.update(newBoardID: board, replica: replica) { board in
                try board.add(title: title, id: ids.make(), eventID: ids.make(), by: "x", at: at)
            }
        }

        /// Takes every event `other` has (a sync's merge).
        func take(_ other: Copy, board: TaskID) throws {
            try store.merge(other.log, boardID: board, newBoardID: board, replica: replica)
        }

        func history(_ limit: Int) throws -> [String] { try store.recentHistory(limit: limit).map(\.title) }
    }

    /// Two copies adding a task every other minute each, interleaved, for
    /// `minutes`; then the first takes the second's events.
    static func apart(minutes: Int) throws -> (a: Copy, b: Copy, board: TaskID) {
        let ids = CountingIDs()
        let board = ids.make()
        let a = Copy(replica: ids.make())
        let b = Copy(replica: ids.make())
        for minute in stride(from: 0, to: minutes, by: 2) {
            try a.add("A \(minute)", minute: minute, ids: ids, board: board)
            try b.add("B \(minute + 1)", minute: minute + 1, ids: ids, board: board)
        }
        try a.take(b, board: board)
        return (a, b, board)
    }

    /// All events of `copies`, newest first in merge order: what history must show.
    static func expected(_ copies: [Copy], _ limit: Int) -> [String] {
        var all: [TaskID: Event] = [:]
        for copy in copies { for event in copy.log { all[event.id] = event } }
        return all.values.sorted { EventOrder($0) > EventOrder($1) }.prefix(limit).compactMap(HistoryEvent.init).map(\.title)
    }

    /// Two people working apart for a day, then syncing each way: each
    /// log has the other's events after its own, yet both show the same
    /// history, interleaved by time.
    @Test func twoCopiesShowOneHistoryInTimeOrder() throws {
        let (a, b, board) = try Self.apart(minutes: 600)
        try b.take(a, board: board)
        for limit in [1, 5, 40, 700] {
            let expected = Self.expected([a, b], limit)
            #expect(try a.history(limit) == expected)
            #expect(try b.history(limit) == expected)
        }
        #expect(try a.history(4) == ["B 599", "A 598", "B 597", "A 596"])
    }

    /// Random changes on three copies, random partial syncs, clocks that
    /// disagree: after every copy has every event, every copy shows the
    /// same history for any limit, and it is the merge order.
    @Test(arguments: 0..<12)
    func everyCopyAgreesWhateverTheArrivalOrder(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) &+ 0x4157)
        let ids = CountingIDs()
        let board = ids.make()
        let copies = (0..<3).map { _ in Copy(replica: ids.make()) }
        let skew = (0..<3).map { _ in Int.random(in: -30...30, using: &random) }
        for step in 0..<150 {
            let who = Int.random(in: 0..<3, using: &random)
            try copies[who].add("\(who)-\(step)", minute: step + skew[who], ids: ids, board: board)
            if Int.random(in: 0..<6, using: &random) == 0 {
                let (from, to) = (Int.random(in: 0..<3, using: &random), Int.random(in: 0..<3, using: &random))
                if from != to { try copies[to].take(copies[from], board: board) }
            }
        }
        for _ in 0..<2 {
            for to in 0..<3 { for from in 0..<3 where from != to { try copies[to].take(copies[from], board: board) } }
        }
        for limit in [1, 3, 10, 50, 200] {
            let expected = Self.expected(copies, limit)
            for copy in copies { #expect(try copy.history(limit) == expected, "seed \(seed), limit \(limit)") }
        }
    }

    /// A long log with a late arrival in it: ten entries are read from the
    /// end (a few chunks), not the whole log.
    @Test func aFewEntriesReadOnlyTheLogsEnd() throws {
        let ids = CountingIDs()
        let board = ids.make()
        let files = FaultInjectingFileSystem(failingCall: nil, code: 0)
        let a = Copy(replica: ids.make(), fileSystem: files)
        let b = Copy(replica: ids.make())
        for minute in 0..<40 { try b.add("Early \(minute)", minute: minute, ids: ids, board: board) }
        for minute in 0..<1500 {
            try a.add("Long title to make the log longer, number \(minute)", minute: 60 + minute, ids: ids, board: board)
        }
        try a.take(b, board: board)
        for minute in 0..<30 { try a.add("After \(minute)", minute: 2000 + minute, ids: ids, board: board) }
        let size = try a.store.eventLog().readAll().committedLength
        #expect(size > 10 * 65_536)
        let before = files.log.count { $0 == "pread" }
        let shown = try a.history(10)
        let reads = files.log.count { $0 == "pread" } - before
        #expect(shown == (20..<30).reversed().map { "After \($0)" })
        // A few chunks of the log's end, and the board file's header (who
        // each copy is: ``ReplicaLedger``).
        #expect(reads <= 5, "\(reads) reads of a \(size)-byte log")
        #expect(try a.history(45).suffix(5) == (1485..<1490).reversed().map { "Long title to make the log longer, number \($0)" })
    }

    /// The marks only make history fast: without them, or with a damaged
    /// or stale file, the order is the same (the log is read to its start).
    @Test func missingOrDamagedMarksCostSpeedNotOrder() throws {
        let (a, b, _) = try Self.apart(minutes: 60)
        let marks = HistoryMarks.path(ofLog: try a.store.eventLog().path)
        #expect(FileManager.default.fileExists(atPath: marks))
        let expected = Self.expected([a, b], 7)
        #expect(try a.history(7) == expected)
        for damage in [nil, "not json", "{\"from\": 99999999, \"batches\": []}", "{\"from\": 0, \"batches\": [[5, 2]]}"] {
            if let damage {
                try Data(damage.utf8).write(to: URL(fileURLWithPath: marks))
            } else {
                try? FileManager.default.removeItem(atPath: marks)
            }
            #expect(try a.history(7) == expected, "\(damage ?? "no file")")
        }
    }

    /// However many batches are recorded, at most 64 are kept, and each
    /// recorded one lies inside a kept one bounded no later than it was.
    @Test func marksStaySmallAndNeverClaimMoreThanTheyKnow() {
        var random = SeededGenerator(seed: 99)
        var marks = HistoryMarks(from: 100)
        var recorded: [HistoryMarks.Batch] = []
        var position = 100
        for n in 0..<1000 {
            position += Int.random(in: 1...500, using: &random)
            let end = position + Int.random(in: 1...800, using: &random)
            let bound = EventOrder(clock: HybridClock(milliseconds: Int64(n), counter: 0), replica: "r", id: "\(n)")
            let batch = HistoryMarks.Batch(start: position, end: end, bound: bound)
            marks.record(batch)
            recorded.append(batch)
            position = end
        }
        #expect(marks.batches.count <= 64)
        for batch in recorded {
            let keeper = marks.batches.first { $0.start <= batch.start && batch.end <= $0.end }
            #expect(keeper != nil && keeper!.bound! <= batch.bound!)
        }
        #expect(marks.batches.last == recorded.last, "the newest stays exact")
    }
}
