import Foundation
import PMTestSupport
import Testing

@testable import PMCore

#if canImport(Glibc)
    import Glibc
#endif

/// Where the index tests start: a board of tasks, checkpointed, then
/// changed once (which writes its index beside it).
protocol IndexedBoardFixture {
    var ids: CountingIDs { get }
    var time: String { get }
}

extension IndexedBoardFixture {
    func store(_ dir: TemporaryDirectory) -> BoardStore {
        BoardStore(path: dir.file("board.json"), lockTimeoutMilliseconds: 200, sleep: { usleep(useconds_t($0 * 1000)) })
    }

    /// A board of `count` tasks (`task 0`…), checkpointed, then its first task moved to DOING.
    func indexedBoard(_ dir: TemporaryDirectory, count: Int, replica: TaskID) throws -> (BoardStore, [TaskID]) {
        let store = store(dir)
        var made: [TaskID] = []
        _ = try store.update(newBoardID: ids.make(), replica: replica) { board in
            for index in 0..<count {
                let id = ids.make()
                made.append(id)
                try board.add(title: "task \(index)", id: id, eventID: ids.make(), by: "x", at: time)
            }
        }
        try store.checkpoint()
        _ = try store.update(newBoardID: ids.make(), replica: replica) { board in
            try board.move(made[0], to: .doing, eventID: ids.make(), by: "x", at: time)
        }
        #expect(FileManager.default.fileExists(atPath: BoardIndex.path(for: dir.file("board.json"))))
        return (store, made)
    }
}
