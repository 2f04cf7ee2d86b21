import Foundation
import PMTestSupport
import Testing

@testable import PMCore

#if canImport(Glibc)
    import Glibc
#endif

/// A checkpoint of a board read through its index copies the tasks its tail
/// did not touch from the old file, checked as they go, instead of decoding
/// them: the same file as a checkpoint of the board read whole, and when the
/// old file is not what its index says, the board read whole decides.
@Suite struct CopiedTasksTests {
    let time = "2026-11-21T10:00:00.000Z"
    let replica = TaskID(unchecked: "0000000a-0000-4000-8000-00000000000a")
    let boardID = TaskID(unchecked: "0000000b-0000-4000-8000-00000000000b")
    /// Titles whose bytes start characters the encoder might escape (E2, C2,
    /// D8 lead bytes) but are safe, and Korean: copied as they are.
    let titles = ["it’s “quoted” …", "naïve ½ café", "회의록 정리", "مرحبا", "plain"]

    func store(_ dir: TemporaryDirectory, fileSystem: FileSystem = PosixFileSystem()) -> BoardStore {
        BoardStore(
            path: dir.file("board.json"), fileSystem: fileSystem, lockTimeoutMilliseconds: 200,
            sleep: { usleep(useconds_t($0 * 1000)) })
    }

    /// The same board in two folders: checkpointed, its index written by a
    /// change, then a tail of moves past the file. Returns the tasks' ids.
    func twoBoards(_ dirs: [TemporaryDirectory], count: Int = 60, moves: Int = 12) throws -> [TaskID] {
        var made: [TaskID] = []
        for dir in dirs {
            let ids = CountingIDs(prefix: "0000c0de")
            let store = store(dir)
            made = []
            _ = try store.update(newBoardID: boardID, replica: replica) { board in
                for index in 0..<count {
                    let id = ids.make()
                    made.append(id)
                    try board.add(
                        title: "\(titles[index % titles.count]) \(index)", id: id, eventID: ids.make(), by: "x", at: time)
                }
            }
            try store.checkpoint()
            for step in 0..<moves {
                _ = try store.update(newBoardID: boardID, replica: replica) { board in
                    try board.move(
                        made[(step * 7) % count], to: step % 2 == 0 ? .done : .doing, eventID: ids.make(), by: "x", at: time)
                }
            }
            #expect(FileManager.default.fileExists(atPath: BoardIndex.path(for: dir.file("board.json"))))
        }
        return made
    }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Applies `edit` to both boards' files (the index still describing the
    /// left one), drops the right one's index, checkpoints both: the left
    /// goes through its index, the right reads its file whole.
    func checkpointBoth(_ left: TemporaryDirectory, _ right: TemporaryDirectory, edit: (inout [UInt8]) throws -> Void)
        throws -> (left: Result<Int?, Error>, right: Result<Int?, Error>)
    {
        for dir in [left, right] {
            var file = try bytes(dir.file("board.json"))
            try edit(&file)
            try overwriteKeepingTime(dir.file("board.json"), file)
        }
        try FileManager.default.removeItem(atPath: BoardIndex.path(for: right.file("board.json")))
        return (Result { try store(left).checkpoint() }, Result { try store(right).checkpoint() })
    }

    func offset(of text: String, in file: [UInt8]) throws -> Int {
        let needle = Array(text.utf8)
        return try #require(file.indices.first { file[$0...].starts(with: needle) }, "\(text) not in the file")
    }

    @Test func aCheckpointThroughTheIndexWritesTheFileAWholeReadWrites() throws {
        let (left, right) = (TemporaryDirectory(), TemporaryDirectory())
        _ = try twoBoards([left, right])
        let (a, b) = try checkpointBoth(left, right) { _ in }
        #expect(try a.get() == 12 && b.get() == 12)
        let file = try bytes(left.file("board.json"))
        #expect(file == (try bytes(right.file("board.json"))))
        // The index written beside it is the one a whole read makes.
        let status = try #require(try PosixFileSystem().status(left.file("board.json")))
        let written = try #require(BoardIndex(decoding: try bytes(BoardIndex.path(for: left.file("board.json")))))
        #expect(written == BoardIndex(board: try BoardDecoder.decode(file, path: "b"), status: status))
    }

    /// The old file is read a block at a time (pread), never whole.
    @Test func aCheckpointThroughTheIndexNeverReadsTheFileWhole() throws {
        let (left, right) = (TemporaryDirectory(), TemporaryDirectory())
        _ = try twoBoards([left, right])
        try FileManager.default.removeItem(atPath: BoardIndex.path(for: right.file("board.json")))
        let (recording, control) = (
            FaultInjectingFileSystem(failingCall: nil, code: 0), FaultInjectingFileSystem(failingCall: nil, code: 0)
        )
        #expect(try store(left, fileSystem: recording).checkpoint() == 12)
        #expect(try store(right, fileSystem: control).checkpoint() == 12)
        // One whole read (`read`) fewer: the board file's.
        let wholeReads = { (fileSystem: FaultInjectingFileSystem) in fileSystem.log.filter { $0 == "read" }.count }
        #expect(wholeReads(recording) + 1 == wholeReads(control), "\(recording.log) \(control.log)")
        #expect(try bytes(left.file("board.json")) == (try bytes(right.file("board.json"))))
    }

    /// A task's bytes broken where they lie (size and time kept): the copy
    /// stops, the board read whole is refused, nothing is written, and the
    /// index that pointed there is dropped.
    @Test func aBrokenTaskStopsTheCopyAndNothingIsWritten() throws {
        let (left, right) = (TemporaryDirectory(), TemporaryDirectory())
        _ = try twoBoards([left, right])
        var before: [UInt8] = []
        let (a, b) = try checkpointBoth(left, right) { file in
            let at = try offset(of: "\"plain 34\"", in: file)
            file[at] = UInt8(ascii: "x")
            before = file
        }
        #expect(throws: PMError.self) { try a.get() }
        #expect(throws: PMError.self) { try b.get() }
        #expect(try bytes(left.file("board.json")) == before)
        #expect(!FileManager.default.fileExists(atPath: BoardIndex.path(for: left.file("board.json"))))
    }

    /// What the copy refuses and the whole read accepts: a raw bidi override
    /// (the encoder escapes it), other whitespace between two tasks, an index
    /// naming a task by another id. The whole read then writes the file.
    @Test(arguments: ["bidi", "separator", "ids"])
    func whatTheCopyRefusesTheWholeReadWrites(damage: String) throws {
        let (left, right) = (TemporaryDirectory(), TemporaryDirectory())
        let made = try twoBoards([left, right])
        if damage == "ids" {
            // A task the tail never touches (moves touch every 7th) named
            // by another id, still in order (its add's event id, made next).
            let path = BoardIndex.path(for: left.file("board.json"))
            var index = try #require(BoardIndex(decoding: try bytes(path)))
            let place = try #require(index.ids.firstIndex(of: made[22]))
            let (high, low) = made[22].words
            index.ids[place] = TaskID(high: high, low: low + 1)
            try Data(index.encoded()).write(to: URL(fileURLWithPath: path))
        }
        let (a, b) = try checkpointBoth(left, right) { file in
            switch damage {
            case "bidi":
                let at = try offset(of: "plain 39", in: file)
                file.replaceSubrange(at..<(at + 3), with: [0xE2, 0x80, 0xAE])
            case "separator":
                let at = try offset(of: "},\n    {", in: file)
                file.replaceSubrange((at + 1)..<(at + 7), with: Array(",\n\t   ".utf8))
            default: break
            }
        }
        #expect(try a.get() == 12 && b.get() == 12)
        let file = try bytes(left.file("board.json"))
        #expect(file == (try bytes(right.file("board.json"))))
        #expect(!file.contains(0x09))
        #expect(!file.indices.dropLast(2).contains { file[$0] == 0xE2 && file[$0 + 1] == 0x80 && file[$0 + 2] == 0xAE })
        if damage == "bidi" { _ = try offset(of: "\\u202ein 39", in: file) }
        let read = try BoardDecoder.decode(file, path: "b")
        #expect(read.tasks.map(\.id) == made)
        // Its index, if any, is the one a whole read of it makes.
        let status = try #require(try PosixFileSystem().status(left.file("board.json")))
        if let written = BoardIndex(decoding: (try? bytes(BoardIndex.path(for: left.file("board.json")))) ?? []) {
            #expect(written == BoardIndex(board: read, status: status))
        }
    }

    /// A change that crosses the bound checkpoints through the index too:
    /// the same file as the same changes on a board read whole each time.
    @Test func aChangeCrossingTheBoundCopiesTheSameFile() throws {
        let (left, right) = (TemporaryDirectory(), TemporaryDirectory())
        let made = try twoBoards([left, right], count: 40, moves: 0)
        for (dir, dropIndex) in [(left, false), (right, true)] {
            let ids = CountingIDs(prefix: "0000beef")
            let store = store(dir)
            for step in 0..<(2 * BoardStore.checkpointEvents) {
                if dropIndex { try? FileManager.default.removeItem(atPath: BoardIndex.path(for: dir.file("board.json"))) }
                _ = try store.update(newBoardID: boardID, replica: replica) { board in
                    if step % 9 == 4, board.tasks.contains(where: { $0.id == made[step % made.count] }) {
                        _ = try board.delete(made[step % made.count], eventID: ids.make(), by: "x", at: time)
                    } else if step % 11 == 5 {
                        try board.add(title: "new \(step)", id: ids.make(), eventID: ids.make(), by: "x", at: time)
                    } else if let task = board.tasks.first(where: { $0.id == made[(step * 3) % made.count] }) {
                        try board.move(task.id, to: task.state == .done ? .todo : .done, eventID: ids.make(), by: "x", at: time)
                    }
                }
            }
        }
        let file = try bytes(left.file("board.json"))
        #expect(file == (try bytes(right.file("board.json"))))
        #expect(try BoardDecoder.decode(file, path: "b").log.events > BoardStore.checkpointEvents)
    }
}
