import Foundation
import PMCore
import PMTestSupport
import Testing

/// Looking for a pending step's event reads only what was appended since its
/// change began, never the past: a step whose event never landed (a kill
/// between saving the step and appending) costs nothing on a long log.
@Suite struct PendingStepLookupTests {
    let ids = CountingIDs()

    /// A log of about `kilobytes` KB of event-shaped lines, then one more event.
    func log(_ dir: TemporaryDirectory, kilobytes: Int, last: TaskID) throws -> (path: String, before: Int) {
        var bytes: [UInt8] = []
        while bytes.count < kilobytes << 10 {
            bytes += Array("{\"id\":\"\(ids.make().rawValue)\",\"kind\":\"created\",\"title\":\"filler\"}\n".utf8)
        }
        let before = bytes.count
        bytes += Array("{\"id\":\"\(last.rawValue)\",\"kind\":\"moved\"}\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: dir.file("board.events.jsonl")))
        return (dir.file("board.json"), before)
    }

    func reads(_ fileSystem: FaultInjectingFileSystem) -> Int { fileSystem.log.filter { $0 == "pread" }.count }

    @Test func theLookupStartsWhereTheChangeBegan() throws {
        let dir = TemporaryDirectory()
        let landed = ids.make()
        let (board, before) = try log(dir, kilobytes: 1024, last: landed)
        let neverLanded = ids.make()
        let step = Transition(from: nil, to: nil, eventID: neverLanded, at: "2026-11-21T10:00:00.000Z")
        let found = Transition(from: nil, to: nil, eventID: landed, at: "2026-11-21T10:00:00.000Z")
        let empty = Board(id: ids.make())

        let fast = FaultInjectingFileSystem(failingCall: nil, code: 0)
        let log = EventLogFile(boardPath: board, fileSystem: fast)
        let size = before + 60
        let missing = UndoStore.Stored(pending: .record([step]), pendingOffset: size)
        #expect(missing.resolved(against: empty, log: log).undo.isEmpty)
        #expect(reads(fast) <= 1, "\(reads(fast)) reads for an event that never landed")

        let present = FaultInjectingFileSystem(failingCall: nil, code: 0)
        let here = UndoStore.Stored(pending: .record([found]), pendingOffset: before)
        #expect(here.resolved(against: empty, log: EventLogFile(boardPath: board, fileSystem: present)).undo == [found])
        #expect(reads(present) == 1)

        // A step saved before steps knew their offset scans the log backwards: the cost this avoids.
        let legacy = FaultInjectingFileSystem(failingCall: nil, code: 0)
        let old = UndoStore.Stored(pending: .record([step]))
        #expect(old.resolved(against: empty, log: EventLogFile(boardPath: board, fileSystem: legacy)).undo.isEmpty)
        #expect(reads(legacy) >= 16, "\(reads(legacy))")

        // A log put back from a backup, shorter than where the change began: nothing read, nothing found.
        let restored = FaultInjectingFileSystem(failingCall: nil, code: 0)
        let beyond = UndoStore.Stored(pending: .record([found]), pendingOffset: size + 4096)
        #expect(beyond.resolved(against: empty, log: EventLogFile(boardPath: board, fileSystem: restored)).undo.isEmpty)
        #expect(reads(restored) == 0)
    }

    @Test func theOffsetIsSavedWithTheStep() throws {
        let dir = TemporaryDirectory()
        let store = UndoStore(
            stateDirectory: dir.file("state"), boardID: ids.make(), boardKey: "/b.json", user: "ji-woo")
        let t0 = "2026-11-21T10:00:00.000Z"
        let step = Transition(
            from: nil, to: BoardTask(id: ids.make(), title: "t", createdAt: t0, updatedAt: t0), eventID: ids.make(), at: t0)
        try store.save(UndoStore.Stored(pending: .record([step]), pendingOffset: 123_456))
        #expect(try store.load().pendingOffset == 123_456)
        try store.save(UndoStore.Stored(pending: .record([step])))
        #expect(try store.load().pendingOffset == nil)
    }
}
