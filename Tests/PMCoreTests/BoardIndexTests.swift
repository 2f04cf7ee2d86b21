import Foundation
import PMTestSupport
import Testing

@testable import PMCore

#if canImport(Glibc)
    import Glibc
#endif

/// A change reads the board through `board.json.index` and decodes only the
/// tasks it touches; the index is used only while it describes the file,
/// and a task it points to wrongly is refused before anything is committed.
@Suite struct BoardIndexTests: IndexedBoardFixture {
    let ids = CountingIDs()
    let time = "2026-11-21T10:00:00.000Z"

    func move(_ id: TaskID, to state: TaskState, in store: BoardStore, replica: TaskID) throws {
        _ = try store.update(newBoardID: ids.make(), replica: replica) { board in
            try board.move(id, to: state, eventID: ids.make(), by: "x", at: time)
        }
    }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test func aChangeReadsOnlyTheTasksItTouches() throws {
        let dir = TemporaryDirectory()
        let replica = ids.make()
        let (store, made) = try indexedBoard(dir, count: 40, replica: replica)
        // Another task's title damaged where it lies, size and time kept: a
        // change that never reads it does not see it.
        let path = dir.file("board.json")
        var file = try bytes(path)
        let title = Array("\"task 31\"".utf8)
        let at = try #require(file.indices.first { file[$0...].starts(with: title) })
        file[at + 1] = UInt8(ascii: "\\")
        try overwriteKeepingTime(path, file)
        try move(made[5], to: .done, in: store, replica: replica)
        // A whole read finds it, as before.
        #expect(throws: PMError.self) { try store.load() }
    }

    @Test func anIndexThatNoLongerDescribesTheFileIsNotUsed() throws {
        let dir = TemporaryDirectory()
        let replica = ids.make()
        let (store, made) = try indexedBoard(dir, count: 10, replica: replica)
        // A board file written again (here by hand, a title changed): the index is stale.
        let path = dir.file("board.json")
        var board = try BoardDecoder.decode(try bytes(path), path: path)
        let index = try #require(board.tasks.firstIndex { $0.id == made[3] })
        board.tasks[index].title = "changed by hand, and longer"
        try Data(BoardEncoder.encode(board)).write(to: URL(fileURLWithPath: path))
        var seen = ""
        _ = try store.update(newBoardID: ids.make(), replica: replica) { board in
            seen = try board.move(made[3], to: .done, eventID: ids.make(), by: "x", at: time).before.title
        }
        #expect(seen == "changed by hand, and longer")
        #expect(try store.load()?.tasks.count == 10)
    }

    @Test func aDamagedIndexIsIgnoredAndWrittenAgain() throws {
        let dir = TemporaryDirectory()
        let replica = ids.make()
        let (store, made) = try indexedBoard(dir, count: 10, replica: replica)
        let indexPath = BoardIndex.path(for: dir.file("board.json"))
        let good = try bytes(indexPath)
        for damaged in [Array(good.prefix(good.count - 1)), [], Array(good.prefix(20))]
            + [good.count / 2, 3].map({ k in
                var copy = good
                copy[k] ^= 0x01
                return copy
            })
        {
            #expect(BoardIndex(decoding: damaged) == nil)
            try Data(damaged).write(to: URL(fileURLWithPath: indexPath))
            try move(made[1], to: .doing, in: store, replica: replica)
            try move(made[1], to: .todo, in: store, replica: replica)
            #expect(BoardIndex(decoding: try bytes(indexPath)) != nil, "written again from the board read whole")
        }
        let board = try #require(try store.load())
        #expect(board.tasks.count == 10 && board.tasks.allSatisfy { $0.title.hasPrefix("task ") })
    }

    @Test func anIndexThatPointsElsewhereIsRefusedAndNothingIsCommitted() throws {
        let dir = TemporaryDirectory()
        let replica = ids.make()
        let (store, made) = try indexedBoard(dir, count: 10, replica: replica)
        let path = dir.file("board.json")
        let indexPath = BoardIndex.path(for: path)
        var index = try #require(BoardIndex(decoding: try bytes(indexPath)))
        // Two tasks' places swapped: each id now names the other's bytes.
        let (a, b) = (try #require(index.ids.firstIndex(of: made[2])), try #require(index.ids.firstIndex(of: made[7])))
        index.ids.swapAt(a, b)
        try Data(index.encoded()).write(to: URL(fileURLWithPath: indexPath))
        let log = try bytes(dir.file("board.events.jsonl"))
        #expect(throws: PMError.self) { try move(made[2], to: .done, in: store, replica: replica) }
        #expect(try bytes(dir.file("board.events.jsonl")) == log, "nothing committed")
        #expect(!FileManager.default.fileExists(atPath: indexPath), "the index is dropped")
        try move(made[2], to: .done, in: store, replica: replica)
        #expect(try store.load()?.task(made[2])?.state == .done)
    }

    @Test func theIndexReadsBackAsWrittenAndRefusesEveryCut() throws {
        let dir = TemporaryDirectory()
        let (_, _) = try indexedBoard(dir, count: 5, replica: ids.make())
        let encoded = try bytes(BoardIndex.path(for: dir.file("board.json")))
        let index = try #require(BoardIndex(decoding: encoded))
        #expect(index.encoded() == encoded)
        #expect(index.ids.count == 5 && index.spans.count == 5)
        for cut in 0..<encoded.count { #expect(BoardIndex(decoding: Array(encoded.prefix(cut))) == nil) }
    }

    /// The same changes, one store reading through its index and one with
    /// the index removed before every change: the same board file, byte for
    /// byte, across a checkpoint.
    @Test func aBoardReadThroughItsIndexCheckpointsTheSameFile() throws {
        let (left, right) = (TemporaryDirectory(), TemporaryDirectory())
        let replica = TaskID(unchecked: "0000000a-0000-4000-8000-00000000000a")
        let boardID = TaskID(unchecked: "0000000b-0000-4000-8000-00000000000b")
        var files: [[UInt8]] = []
        for (dir, dropIndex) in [(left, false), (right, true)] {
            let ids = CountingIDs(prefix: "0000c0de")
            let store = store(dir)
            for step in 0..<(BoardStore.checkpointEvents + 20) {
                if dropIndex { try? FileManager.default.removeItem(atPath: BoardIndex.path(for: dir.file("board.json"))) }
                _ = try store.update(newBoardID: boardID, replica: replica) { board in
                    if step % 3 == 2, let task = board.tasks.dropFirst(step % 5).first {
                        let state: TaskState = task.state == .done ? .doing : .done
                        try board.move(task.id, to: state, eventID: ids.make(), by: "x", at: time)
                    } else {
                        try board.add(title: "task \(step)", id: ids.make(), eventID: ids.make(), by: "x", at: time)
                    }
                }
            }
            files.append(try bytes(dir.file("board.json")))
        }
        #expect(files[0] == files[1])
        let written = try BoardDecoder.decode(files[0], path: "b")
        #expect(written.log.events > BoardStore.checkpointEvents, "\(written.log.events) \(written.tasks.count)")
    }

    /// A checkpoint writes the index of the file it wrote (the next change
    /// does not read the new file whole): the very index a whole read of
    /// that file makes, and it describes the file on disk.
    @Test func aCheckpointWritesTheIndexOfItsFile() throws {
        let dir = TemporaryDirectory()
        let replica = ids.make()
        let (store, made) = try indexedBoard(dir, count: 30, replica: replica)
        let path = dir.file("board.json")
        for step in 0...BoardStore.checkpointEvents {
            try move(made[step % made.count], to: step % 2 == 0 ? .done : .todo, in: store, replica: replica)
        }
        try store.checkpoint()
        let file = try bytes(path)
        let read = try BoardDecoder.decode(file, path: "b")
        let status = try #require(try PosixFileSystem().status(path))
        let written = try #require(BoardIndex(decoding: try bytes(BoardIndex.path(for: path))))
        #expect(written == BoardIndex(board: read, status: status))
        #expect(written.describes(status, header: Array(file[..<written.headerLength])))
        #expect(written.ids.count == 30)
        // And a change then goes through it: a task damaged where it lies,
        // size and time kept, is never read by a change that does not touch it.
        var damaged = file
        let title = Array("\"task 17\"".utf8)
        let at = try #require(damaged.indices.first { damaged[$0...].starts(with: title) })
        damaged[at + 1] = UInt8(ascii: "\\")
        try overwriteKeepingTime(path, damaged)
        try move(made[3], to: .doing, in: store, replica: replica)
        #expect(throws: PMError.self) { try store.load() }
    }

    /// A board only shown leaves each task's heads as text until read: the
    /// same board once they are, and a change still refuses heads of a wrong shape.
    @Test func headsReadLaterAreTheSameHeads() throws {
        let dir = TemporaryDirectory()
        let replica = ids.make()
        let (store, made) = try indexedBoard(dir, count: 6, replica: replica)
        _ = try store.update(newBoardID: ids.make(), replica: replica) { board in
            try board.edit(
                made[2], Board.Edit(title: "renamed", due: .some(CivilDate(iso: "2026-12-01"))), eventID: ids.make(), by: "x",
                at: time)
        }
        try store.checkpoint()
        let path = dir.file("board.json")
        let file = try bytes(path)
        let eager = try BoardDecoder.decode(file, path: path)
        let lazy = try BoardDecoder.decode(file, path: path, lazyHeads: true)
        #expect(lazy.tasks.map(\.title) == eager.tasks.map(\.title))
        #expect(lazy.tasks.map(\.heads) == eager.tasks.map(\.heads) && lazy.tasks.map(\.live) == eager.tasks.map(\.live))
        #expect(lazy == eager)
        // Heads that are JSON but not heads: a change refuses the board.
        let text = String(decoding: file, as: UTF8.self)
        let broken = text.replacingOccurrences(of: "\"heads\": {", with: "\"heads\": {\"zz\": 5, ")
        #expect(broken != text)
        try Data(broken.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: PMError.self) { try BoardDecoder.decode(Array(broken.utf8), path: path) }
        #expect(try store.load()?.tasks.map(\.title) == eager.tasks.map(\.title), "shown as it is")
        #expect(throws: PMError.self) { try move(made[1], to: .done, in: store, replica: replica) }
    }

    /// A board only shown leaves each body as checked text until read: the
    /// same body once it is (escapes and all), a change keeps it, and a body
    /// that is not a string is still refused when the board is read.
    @Test func bodiesReadLaterAreTheSameBodies() throws {
        let dir = TemporaryDirectory()
        let replica = ids.make()
        let (store, made) = try indexedBoard(dir, count: 4, replica: replica)
        let bodies = ["line one\nline \"two\"\ttab", "", "é 한국어 \u{1F600} \\ back", String(repeating: "long ", count: 190)]
        _ = try store.update(newBoardID: ids.make(), replica: replica) { board in
            for (id, body) in zip(made, bodies) {
                try board.edit(id, Board.Edit(body: body), eventID: ids.make(), by: "x", at: time)
            }
        }
        try store.checkpoint()
        let path = dir.file("board.json")
        let file = try bytes(path)
        let eager = try BoardDecoder.decode(file, path: path)
        let lazy = try BoardDecoder.decode(file, path: path, lazyHeads: true)
        #expect(lazy == eager)
        #expect(lazy.tasks.map(\.body).sorted() == bodies.sorted())
        // A change to another field of a task whose body was never read keeps it.
        var unread = try BoardDecoder.decode(file, path: path, lazyHeads: true)
        let index = try #require(unread.tasks.firstIndex { $0.id == made[0] })
        unread.tasks[index].title = "renamed"
        #expect(unread.tasks[index].body == bodies[0])
        // Written again unread, the board is the same bytes.
        #expect(BoardEncoder.encode(try BoardDecoder.decode(file, path: path, lazyHeads: true)) == BoardEncoder.encode(eager))
        // A body of the wrong type, or a broken string, is refused on reading, not on showing.
        let text = String(decoding: file, as: UTF8.self)
        for (old, new) in [("\"body\": \"\"", "\"body\": 5"), ("\"body\": \"line one", "\"body\": \"\\q")] {
            let broken = text.replacingOccurrences(of: old, with: new)
            #expect(broken != text, "\(old)")
            #expect(throws: PMError.self, "\(new)") {
                try BoardDecoder.decode(Array(broken.utf8), path: path, lazyHeads: true)
            }
        }
    }
}
