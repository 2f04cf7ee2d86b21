import Foundation
import PMCore
import PMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The log is the commit; board.json is a checkpoint rewritten only when the
/// log's tail past it passes the bound, and every reader folds the tail.
@Suite struct CheckpointTests {
    let ids = CountingIDs()

    func store(_ dir: TemporaryDirectory) -> BoardStore {
        BoardStore(path: dir.file("board.json"), lockTimeoutMilliseconds: 200, sleep: { usleep(useconds_t($0 * 1000)) })
    }

    func add(_ title: String, to store: BoardStore, replica: TaskID) throws {
        _ = try store.update(newBoardID: ids.make(), replica: replica) { board in
            try board.add(title: title, id: ids.make(), eventID: ids.make(), by: "x", at: "2026-11-21T10:00:00.000Z")
        }
    }

    /// Where board.json stands, as written (not folded).
    func onDisk(_ dir: TemporaryDirectory) throws -> Board {
        try BoardDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("board.json")))), path: "b")
    }

    @Test func aChangeWritesOnlyTheLogUntilTheTailPassesTheBound() throws {
        let dir = TemporaryDirectory()
        let store = store(dir)
        let replica = ids.make()
        try add("first", to: store, replica: replica)
        let first = try onDisk(dir)
        #expect(first.tasks.map(\.title) == ["first"], "a new board's first change writes its whole file")
        var rewrites = 0
        var lastEvents = first.log.events
        for index in 1...(BoardStore.checkpointEvents + 10) {
            try add("task \(index)", to: store, replica: replica)
            let disk = try onDisk(dir)
            if disk.log.events != lastEvents {
                rewrites += 1
                lastEvents = disk.log.events
            }
            let folded = try #require(try store.load())
            #expect(folded.tasks.count == index + 1, "every reader sees every committed change")
            #expect(folded.log.events - disk.log.events <= BoardStore.checkpointEvents, "never further behind than the bound")
        }
        #expect(rewrites == 1, "one rewrite in \(BoardStore.checkpointEvents + 10) changes, not one per change: \(rewrites)")
        // pm checkpoint: the file holds everything at once, and the next call writes nothing.
        let behind = try store.checkpoint()
        #expect(behind == (try store.load()!.log.events) - lastEvents && behind ?? 0 > 0)
        #expect(try onDisk(dir).tasks.count == BoardStore.checkpointEvents + 11)
        #expect(try store.checkpoint() == 0)
    }

    @Test func aLostBoardFileIsMadeAgainByACheckpoint() throws {
        let dir = TemporaryDirectory()
        let store = store(dir)
        try add("kept", to: store, replica: ids.make())
        let id = try store.load()!.id
        try FileManager.default.removeItem(atPath: dir.file("board.json"))
        #expect(try store.checkpoint() == 2, "the board's record and the one change")
        let disk = try onDisk(dir)
        #expect(disk.id == id && disk.tasks.map(\.title) == ["kept"])
        #expect(try BoardStore(path: dir.file("none/board.json"), sleep: { _ in }).checkpoint() == nil)
    }

    /// A board file without heads (an older pm's) would make every reader
    /// fold the whole log again: the first change writes it with them.
    @Test func aBoardFileWithoutHeadsIsWrittenWithThemByTheNextChange() throws {
        let dir = TemporaryDirectory()
        let store = store(dir)
        let replica = ids.make()
        try add("one", to: store, replica: replica)
        try add("two", to: store, replica: replica)
        try store.checkpoint()
        let url = URL(fileURLWithPath: dir.file("board.json"))
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let tasks = try #require(json["tasks"] as? [[String: Any]])
        json["tasks"] = tasks.map { task in task.filter { $0.key != "heads" && $0.key != "live" } }
        try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]).write(to: url)
        #expect(try onDisk(dir).tasks.allSatisfy { !$0.tracked })
        #expect(try store.load()?.tasks.map(\.title) == ["one", "two"])
        try add("three", to: store, replica: replica)
        let disk = try onDisk(dir)
        #expect(disk.tasks.map(\.title) == ["one", "two", "three"] && disk.tasks.allSatisfy(\.tracked))
    }
}

/// A checkpoint under a failing file system: every call of `pm checkpoint`
/// and of the change that crosses the bound fails in turn (full disk, I/O
/// error, permission, read-only). The board read afterwards is always the
/// whole log's, the next change commits, and no temporary file is left.
@Suite struct CheckpointFaultTests {
    let ids = CountingIDs()

    func store(_ dir: TemporaryDirectory, _ fs: FileSystem = PosixFileSystem()) -> BoardStore {
        BoardStore(
            path: dir.file("board.json"), fileSystem: fs, lockTimeoutMilliseconds: 200,
            sleep: { usleep(useconds_t($0 * 1000)) })
    }

    func add(_ title: String, to store: BoardStore) throws {
        _ = try store.update(newBoardID: ids.make(), replica: ids.make()) { board in
            try board.add(title: title, id: ids.make(), eventID: ids.make(), by: "x", at: "2026-11-21T10:00:00.000Z")
        }
    }

    /// A board whose file stands `behind` events behind its log.
    func board(behind: Int) throws -> (TemporaryDirectory, [String]) {
        let dir = TemporaryDirectory()
        var titles = ["first"]
        try add("first", to: store(dir))
        for n in 0..<behind {
            titles.append("task \(n)")
            try add("task \(n)", to: store(dir))
        }
        return (dir, titles)
    }

    /// A fresh copy of a board made by ``board(behind:)``: the same files,
    /// byte for byte, without making its changes again one by one.
    func copy(_ board: (TemporaryDirectory, [String])) throws -> (TemporaryDirectory, [String]) {
        let dir = TemporaryDirectory()
        for name in try FileManager.default.contentsOfDirectory(atPath: board.0.path) {
            try FileManager.default.copyItem(atPath: board.0.file(name), toPath: dir.file(name))
        }
        return (dir, board.1)
    }

    func titles(_ dir: TemporaryDirectory) throws -> [String] { try store(dir).load()?.tasks.map(\.title).sorted() ?? [] }

    @Test(arguments: [ENOSPC, EIO, EACCES, EROFS])
    func everyFailingCallOfACheckpointLeavesTheWholeLogReadable(code: Int32) throws {
        let probe = FaultInjectingFileSystem(failingCall: nil, code: code)
        let (probeDir, _) = try board(behind: 20)
        #expect(try store(probeDir, probe).checkpoint() == 20)
        let calls = probe.callCount
        #expect(calls >= 5)
        let template = try board(behind: 20)
        for n in 1...calls {
            let (dir, expected) = try copy(template)
            let faulty = FaultInjectingFileSystem(failingCall: n, code: code)
            do {
                _ = try store(dir, faulty).checkpoint()
            } catch let error as PMError {
                switch error {
                case .saveFailed, .createFailed, .readFailed, .locked: break
                default: Issue.record("call \(n) (\(faulty.log.last ?? "")): unexpected \(error)")
                }
            }
            #expect(try titles(dir) == expected.sorted(), "call \(n) \(faulty.log.last ?? "")")
            try add("after", to: store(dir))
            #expect(try titles(dir) == (expected + ["after"]).sorted(), "call \(n) \(faulty.log.last ?? "")")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
            #expect(leftovers.isEmpty, "call \(n): \(leftovers)")
        }
    }

    @Test(arguments: [ENOSPC, EIO])
    func everyFailingCallOfTheChangeThatCrossesTheBoundLeavesTheOldOrTheNewBoard(code: Int32) throws {
        let behind = BoardStore.checkpointEvents
        let probe = FaultInjectingFileSystem(failingCall: nil, code: code)
        let (probeDir, _) = try board(behind: behind)
        try add("crossing", to: store(probeDir, probe))
        let written = try BoardDecoder.decode(
            Array(try Data(contentsOf: URL(fileURLWithPath: probeDir.file("board.json")))), path: "b")
        #expect(written.tasks.contains { $0.title == "crossing" }, "the change that crosses the bound writes the checkpoint")
        let calls = probe.callCount
        let template = try board(behind: behind)
        for n in 1...calls {
            let (dir, expected) = try copy(template)
            let faulty = FaultInjectingFileSystem(failingCall: n, code: code)
            var failed = false
            do {
                try add("crossing", to: store(dir, faulty))
            } catch is PMError {
                failed = true
            }
            let wanted = failed ? expected : expected + ["crossing"]
            #expect(try titles(dir) == wanted.sorted(), "call \(n) \(faulty.log.last ?? "") (failed: \(failed))")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
            #expect(leftovers.isEmpty, "call \(n): \(leftovers)")
        }
    }
}
