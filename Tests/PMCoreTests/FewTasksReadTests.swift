import Foundation
import PMTestSupport
import Testing

@testable import PMCore

#if canImport(Glibc)
    import Glibc
#endif

/// `pm show` reads the board through its index and decodes only the task it
/// shows; whenever the index cannot be trusted for what was read, it reads
/// the board whole and says what a whole read says.
@Suite struct FewTasksReadTests: IndexedBoardFixture {
    let ids = CountingIDs()
    let time = "2026-11-21T10:00:00.000Z"

    func indexPath(_ dir: TemporaryDirectory) -> String { BoardIndex.path(for: dir.file("board.json")) }

    /// The board file with the title `"task N"` damaged where it lies, size and time kept.
    func damageTitle(_ number: Int, in dir: TemporaryDirectory) throws {
        let path = dir.file("board.json")
        var file = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let title = Array("\"task \(number)\"".utf8)
        let at = try #require(file.indices.first { file[$0...].starts(with: title) })
        file[at] = UInt8(ascii: "{")
        try overwriteKeepingTime(path, file)
    }

    func title(of id: TaskID, in store: BoardStore) throws -> String? {
        try store.withFewTasks { board in board?.task(id)?.title }
    }

    @Test func onlyTheTaskShownIsRead() throws {
        let dir = TemporaryDirectory()
        let (store, made) = try indexedBoard(dir, count: 40, replica: ids.make())
        try damageTitle(31, in: dir)
        #expect(try title(of: made[5], in: store) == "task 5")
        #expect(try store.withFewTasks { $0?.task(made[0])?.state } == .doing)
        // A whole read finds the damage, as before; the index was kept.
        #expect(throws: PMError.self) { try store.load() }
        #expect(FileManager.default.fileExists(atPath: indexPath(dir)))
    }

    @Test func aDamagedTaskShownIsReportedAsAWholeReadReportsIt() throws {
        let dir = TemporaryDirectory()
        let (store, made) = try indexedBoard(dir, count: 40, replica: ids.make())
        try damageTitle(7, in: dir)
        // Its title is what the index's summary says, read from no file.
        #expect(try title(of: made[7], in: store) == "task 7")
        var runs = 0
        #expect(throws: PMError.self) {
            try store.withFewTasks { board -> String? in
                runs += 1
                return board?.task(made[7])?.body
            }
        }
        // Read through the index, found unreadable, then read whole (which
        // refuses the file); the index is no longer trusted.
        #expect(runs == 1)
        #expect(!FileManager.default.fileExists(atPath: indexPath(dir)))
    }

    @Test func whatTheLogHoldsPastTheCheckpointIsShown() throws {
        let dir = TemporaryDirectory()
        let replica = ids.make()
        let (store, made) = try indexedBoard(dir, count: 10, replica: replica)
        let added = ids.make()
        _ = try store.update(newBoardID: ids.make(), replica: replica) { board in
            try board.add(title: "after the checkpoint", id: added, eventID: ids.make(), by: "x", at: time)
            try board.edit(made[4], Board.Edit(title: "renamed"), eventID: ids.make(), by: "x", at: time)
        }
        #expect(try title(of: added, in: store) == "after the checkpoint")
        #expect(try title(of: made[4], in: store) == "renamed")
        #expect(try store.withFewTasks { $0?.tasks.count } == 11)
    }

    @Test func aStaleIndexIsNotUsed() throws {
        let dir = TemporaryDirectory()
        let (store, made) = try indexedBoard(dir, count: 10, replica: ids.make())
        let path = dir.file("board.json")
        var board = try BoardDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))), path: path)
        let index = try #require(board.tasks.firstIndex { $0.id == made[3] })
        board.tasks[index].title = "changed by hand, and longer"
        try Data(BoardEncoder.encode(board)).write(to: URL(fileURLWithPath: path))
        #expect(try title(of: made[3], in: store) == "changed by hand, and longer")
    }

    @Test func noBoardYetIsNil() throws {
        let dir = TemporaryDirectory()
        #expect(try store(dir).withFewTasks { $0 == nil })
    }
}
