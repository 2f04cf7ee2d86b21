import Foundation
import PMCore
import PMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct BoardStoreTests {
    let ids = CountingIDs()

    func store(_ dir: TemporaryDirectory, _ fs: FileSystem = PosixFileSystem(), timeout: Int = 200) -> BoardStore {
        BoardStore(
            path: dir.file("board.json"), fileSystem: fs, lockTimeoutMilliseconds: timeout,
            sleep: { usleep(useconds_t($0 * 1000)) })
    }

    func add(_ title: String, to store: BoardStore) throws {
        _ = try store.update(newBoardID: ids.make(), replica: ids.make()) { board in
            try board.add(title: title, id: ids.make(), eventID: ids.make(), by: "x", at: "2026-11-21T10:00:00.000Z")
        }
    }

    @Test func aMissingFileIsAnEmptyBoardCreatedOnTheFirstChange() throws {
        let dir = TemporaryDirectory()
        let store = BoardStore(path: dir.file("nested/deeper/board.json"), sleep: { _ in })
        #expect(try store.load() == nil)
        _ = try store.update(newBoardID: ids.make(), replica: ids.make()) { board in
            try board.add(title: "first", id: ids.make(), eventID: ids.make(), by: "x", at: "2026-11-21T10:00:00.000Z")
        }
        #expect(try store.load()?.tasks.map(\.title) == ["first"])
        #expect(try store.load()?.log.events == 2, "the board's record and one event in the log")
    }

    @Test func aFailedChangeWritesNothing() throws {
        let dir = TemporaryDirectory()
        let store = store(dir)
        try add("kept", to: store)
        let before = dir.read("board.json")
        #expect(throws: PMError.emptyTitle) { try add(" ", to: store) }
        #expect(dir.read("board.json") == before)
    }

    /// What every other copy would refuse is refused here too, before
    /// anything is written: a change whose line passes the limit (a body of
    /// 1,000 characters each carrying thousands of combining marks, as a
    /// paste into pm board could hold).
    @Test func aChangeNoOtherCopyWouldTakeIsRefusedBeforeItIsWritten() throws {
        let dir = TemporaryDirectory()
        let store = store(dir)
        try add("kept", to: store)
        let (board, log) = (dir.read("board.json"), dir.read("board.events.jsonl"))
        let heavy = String(repeating: "a" + String(repeating: "\u{301}", count: 5000), count: 1000)
        #expect(throws: PMError.changeRefused(.oversized(field: "line"))) {
            try store.update(newBoardID: ids.make(), replica: ids.make()) { board in
                try board.add(
                    title: "heavy", body: heavy, id: ids.make(), eventID: ids.make(), by: "x", at: "2026-11-21T10:00:00.000Z")
            }
        }
        #expect(throws: PMError.changeRefused(.unsafeText(field: "author"))) {
            try store.update(newBoardID: ids.make(), replica: ids.make()) { board in
                try board.add(title: "named", id: ids.make(), eventID: ids.make(), by: "a\u{1B}b", at: "2026-11-21T10:00:00.000Z")
            }
        }
        #expect(dir.read("board.json") == board && dir.read("board.events.jsonl") == log)
    }

    /// Makes each file-system call of a save fail in turn, with each errno
    /// a full disk or a permission problem gives: the board on disk is always
    /// the old one or the new one, never damaged, and no temp file is left.
    @Test(arguments: [ENOSPC, EIO, EACCES, EROFS])
    func everyFailingCallLeavesTheOldOrTheNewBoard(code: Int32) throws {
        let probe = FaultInjectingFileSystem(failingCall: nil, code: code)
        let dir = TemporaryDirectory()
        try add("original", to: store(dir))
        try add("second", to: store(dir, probe))
        let calls = probe.callCount
        #expect(calls >= 10)
        for n in 1...calls {
            let dir = TemporaryDirectory()
            try add("original", to: store(dir))
            let old = try #require(dir.read("board.json"))
            let faulty = FaultInjectingFileSystem(failingCall: n, code: code)
            var failed = false
            do {
                try add("second", to: store(dir, faulty))
            } catch let error as PMError {
                failed = true
                switch error {
                case .saveFailed, .createFailed, .readFailed: break
                default: Issue.record("call \(n) (\(faulty.log.last ?? "")): unexpected \(error)")
                }
            }
            let now = try #require(dir.read("board.json"))
            // The log is the truth; board.json may lag it after a commit.
            let titles = try store(dir).load()?.tasks.map(\.title) ?? []
            if failed {
                #expect(now == old, "call \(n) \(faulty.log.last ?? "") failed but changed the board")
                #expect(titles == ["original"], "call \(n) \(faulty.log.last ?? "") failed but committed an event")
            } else {
                #expect(titles == ["original", "second"], "call \(n) \(faulty.log.last ?? "")")
            }
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
            #expect(leftovers.isEmpty, "call \(n): \(leftovers)")
        }
    }

    @Test func aHeldLockMakesTheWriterGiveUpWithTheHoldersPid() throws {
        let dir = TemporaryDirectory()
        try add("original", to: store(dir))
        // Another pm (a child process) holds the lock and writes its pid.
        dir.write("board.json.lock", "")
        let holder = try ChildProcess(
            "/usr/bin/flock",
            [dir.file("board.json.lock"), "sh", "-c", "echo \"$PPID host\" > \"$0\"; sleep 5", dir.file("board.json.lock")])
        defer { holder.send(SIGTERM) }
        for _ in 0..<200 where (dir.read("board.json.lock")?.count ?? 0) < 3 { usleep(10_000) }
        let before = dir.read("board.json")
        #expect(throws: PMError.locked(LockHolder(pid: holder.pid))) {
            try add("blocked", to: store(dir, timeout: 50))
        }
        #expect(dir.read("board.json") == before)
        holder.send(SIGTERM)
        holder.wait()
        try add("after", to: store(dir))
        #expect(try store(dir).load()?.tasks.count == 2)
    }

    /// The lock's holder is not a pm (`flock(1)`, another tool): the stale
    /// pid a pm once wrote into the file is not named as the holder.
    @Test func aLockHeldByAnotherProgramNamesThatProgramNotAStalePid() throws {
        let dir = TemporaryDirectory()
        try add("original", to: store(dir))
        dir.write("board.json.lock", "4242 oldhost\n")
        let holder = try ChildProcess("/usr/bin/flock", [dir.file("board.json.lock"), "sleep", "5"])
        defer { holder.send(SIGTERM) }
        usleep(200_000)
        do {
            try add("blocked", to: store(dir, timeout: 50))
            Issue.record("the lock was not honoured")
        } catch PMError.locked(let who) {
            #expect(who?.pid != 4242)
            #expect(who?.isPM == false, "\(String(describing: who))")
        }
    }

    @Test func leftoverTempFilesOfAKilledWriterAreCleanedUp() throws {
        let dir = TemporaryDirectory()
        try add("original", to: store(dir))
        dir.write(".board.json.tmp-99999", "{half a board")
        let host = PosixFileSystem().hostName
        dir.write(".board.json.tmp-\(host)-99998-ab12", "{half a board")
        try add("second", to: store(dir))
        #expect(dir.read(".board.json.tmp-99999") == nil, "pm 0.1's name: this host's, its writer gone")
        #expect(dir.read(".board.json.tmp-\(host)-99998-ab12") == nil)
        #expect(try store(dir).load()?.tasks.count == 2)
    }

    @Test func aBoardFromANewerSchemaIsNeverWritten() throws {
        let dir = TemporaryDirectory()
        try add("original", to: store(dir))
        let text = String(decoding: try #require(dir.read("board.json")), as: UTF8.self)
            .replacingOccurrences(of: "\"schemaVersion\": 2", with: "\"schemaVersion\": 3")
        dir.write("board.json", text)
        let log = dir.read("board.events.jsonl")
        #expect(throws: PMError.newerSchema(path: dir.file("board.json"), found: 3, supported: 2)) {
            try add("x", to: store(dir))
        }
        #expect(dir.read("board.json") == Data(text.utf8))
        #expect(dir.read("board.events.jsonl") == log, "nor its log")
        #expect(try store(dir).load()?.tasks.map(\.title) == ["original"], "read, as far as it can")
    }

    @Test func aDirectoryIsNotABoard() throws {
        let dir = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.file("board.json"), withIntermediateDirectories: true)
        #expect(throws: PMError.notARegularFile(path: dir.file("board.json"))) { try store(dir).load() }
        #expect(throws: PMError.notARegularFile(path: dir.file("board.json"))) { try add("x", to: store(dir)) }
    }

    @Test func aSymlinkIsFollowedAndItsTargetReplaced() throws {
        let dir = TemporaryDirectory()
        let store = BoardStore(path: dir.file("real.json"), sleep: { _ in })
        _ = try store.update(newBoardID: ids.make(), replica: ids.make()) {
            try $0.add(title: "a", id: ids.make(), eventID: ids.make(), by: "x", at: "2026-11-21T10:00:00.000Z")
        }
        try FileManager.default.createSymbolicLink(atPath: dir.file("board.json"), withDestinationPath: "real.json")
        try add("b", to: self.store(dir))
        let attributes = try FileManager.default.attributesOfItem(atPath: dir.file("board.json"))
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
        #expect(try store.load()?.tasks.map(\.title) == ["a", "b"])
    }
}
