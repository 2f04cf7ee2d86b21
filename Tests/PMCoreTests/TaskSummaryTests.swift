import Foundation
import PMTestSupport
import Testing

@testable import PMCore

#if canImport(Glibc)
    import Glibc
#endif

/// The index says what a list shows of each task (``TaskSummary``): the
/// very fields a whole read of the file gives, for cards that carry
/// labels, a priority, a checklist and assignees; a summary that does not
/// read back is passed over for the file, and one that the file
/// contradicts is damage, found as soon as the rest of its task is read.
@Suite struct TaskSummaryTests: IndexedBoardFixture {
    let ids = CountingIDs()
    let time = "2026-11-21T10:00:00.000Z"

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Ten tasks, every third a card with labels, a priority, a checklist
    /// with a tick, a comment and an assignee; the index written by a change.
    func cards(_ dir: TemporaryDirectory) throws -> (BoardStore, [TaskID]) {
        let (store, made) = try indexedBoard(dir, count: 10, replica: ids.make())
        _ = try store.update(newBoardID: ids.make(), replica: ids.make()) { board in
            for (index, id) in made.enumerated() where index % 3 == 1 {
                try board.change(id, .labels(adding: ["été", "bug"], removing: []), eventID: ids.make(), by: "x", at: time)
                try board.change(id, .priority(.high), eventID: ids.make(), by: "x", at: time)
                for step in ["one", "two", "three"] {
                    try board.change(
                        id, .addItem(text: step, before: nil, done: step == "two"), eventID: ids.make(), by: "x", at: time)
                }
                try board.change(id, .addComment(text: "Looks good"), eventID: ids.make(), by: "x", at: time)
                try board.assign(id, adding: ["지우"], eventID: ids.make(), by: "x", at: time)
                try board.edit(id, Board.Edit(due: .some(CivilDate(iso: "2026-12-24"))), eventID: ids.make(), by: "x", at: time)
            }
        }
        try store.checkpoint()
        _ = try store.update(newBoardID: ids.make(), replica: ids.make()) { board in
            try board.move(made[2], to: .done, eventID: ids.make(), by: "x", at: time)
        }
        return (store, made)
    }

    func index(_ dir: TemporaryDirectory) throws -> BoardIndex {
        try #require(BoardIndex(decoding: try bytes(BoardIndex.path(for: dir.file("board.json")))))
    }

    @Test func eachSummarySaysWhatAWholeReadGives() throws {
        let dir = TemporaryDirectory()
        let (_, made) = try cards(dir)
        let index = try index(dir)
        let whole = try BoardDecoder.decode(try bytes(dir.file("board.json")), path: "b")
        #expect(index.count == whole.tasks.count)
        for position in 0..<index.count {
            let task = try #require(whole.task(index.id(at: position)))
            let summary = try #require(index.summary(at: position))
            #expect(summary == TaskSummary(of: task))
            #expect(summary.title == task.title && summary.labels == task.labels && summary.due == task.due)
        }
        let cardAt = try #require(index.ids.firstIndex(of: made[1]))
        let card = try #require(index.summary(at: cardAt))
        #expect(card.labels == ["bug", "été"] && card.priority == .high && card.assignees == ["지우"])
        #expect(card.done == 1 && card.total == 3)
        // Encoded and read back, every summary is itself; every cut of one is refused.
        var encoded: [UInt8] = []
        var table = TaskSummary.NameTable()
        card.encode(into: &encoded, names: &table)
        #expect(table.names == ["지우", "bug", "été"])
        for cut in 0..<encoded.count {
            #expect(encoded.prefix(cut).withUnsafeBufferPointer { TaskSummary(decoding: $0, names: table.names) } == nil)
        }
        #expect(encoded.withUnsafeBufferPointer { TaskSummary(decoding: $0, names: table.names) } == card)
        // A name's place past the table's end is no summary.
        #expect(encoded.withUnsafeBufferPointer { TaskSummary(decoding: $0, names: ["지우", "bug"]) } == nil)
        // Each name once in the index, however many cards carry it.
        #expect(index.names.count == Set(index.names).count && index.names.count == 3)
    }

    /// Through the index, the tasks show what the whole read shows, and
    /// none of them is read from the file: the file damaged in place (its
    /// size and time kept) is not seen by a list of titles, labels and progress.
    @Test func aBoardShownThroughItsIndexReadsNoTaskFromTheFile() throws {
        let dir = TemporaryDirectory()
        let (store, made) = try cards(dir)
        let whole = try #require(try store.load())
        let path = dir.file("board.json")
        var file = try bytes(path)
        // Every task but the one the log's tail moved (which the fold reads).
        let index = try index(dir)
        for position in 0..<index.count where index.id(at: position) != made[2] {
            let span = index.span(at: position)
            for at in span.dropFirst() where file[at] == UInt8(ascii: "{") { file[at] = UInt8(ascii: "[") }
        }
        try overwriteKeepingTime(path, file)
        let shown = try store.withFewTasks { board in
            try #require(board).tasks.map { ($0.id, $0.title, $0.state, $0.labels, $0.progress.done, $0.progress.total) }
        }
        #expect(shown.map(\.0) == whole.tasks.map(\.id))
        for (task, seen) in zip(whole.tasks, shown) {
            #expect(seen.1 == task.title && seen.2 == task.state && seen.3 == task.labels)
            #expect(seen.4 == task.progress.done && seen.5 == task.progress.total)
        }
        // Anything more of a task is read from the file: refused there.
        #expect(throws: PMError.self) { try store.withFewTasks { board in board?.task(made[1])?.checklist.count } }
    }

    /// A summary forged to say another title (the index's checksum made
    /// good): found out when the rest of the task is read, the index
    /// dropped, and the answer taken from the board read whole.
    @Test func aSummaryTheFileContradictsIsDamage() throws {
        let dir = TemporaryDirectory()
        let (store, made) = try cards(dir)
        var index = try index(dir)
        let position = try #require(index.ids.firstIndex(of: made[4]))
        var forged = try #require(index.summary(at: position))
        forged.title = "forged"
        var encoded: [UInt8] = []
        var table = TaskSummary.NameTable(index.names)
        forged.encode(into: &encoded, names: &table)
        index.setSummaryBytes(encoded, at: position)
        let indexPath = BoardIndex.path(for: dir.file("board.json"))
        try Data(index.encoded()).write(to: URL(fileURLWithPath: indexPath))
        let read = try store.withFewTasks { board in
            board.flatMap { board in board.task(made[4]).map { ($0.body, $0.title) } }
        }
        #expect(read?.1 == "task 4")
        #expect(!FileManager.default.fileExists(atPath: indexPath), "the index is no longer trusted")
    }

    /// Summary bytes that do not read back (a state that does not exist)
    /// are no summary: the task is read from the file, and nothing is refused.
    @Test func aSummaryThatDoesNotReadBackIsPassedOverForTheFile() throws {
        let dir = TemporaryDirectory()
        let (store, made) = try cards(dir)
        var index = try index(dir)
        let position = try #require(index.ids.firstIndex(of: made[7]))
        var bytes = Array(index.summaryBytes(at: position))
        bytes[0] = 9
        index.setSummaryBytes(bytes, at: position)
        #expect(index.summary(at: position) == nil)
        let indexPath = BoardIndex.path(for: dir.file("board.json"))
        try Data(index.encoded()).write(to: URL(fileURLWithPath: indexPath))
        let title = try store.withFewTasks { board in board?.task(made[7])?.labels }
        #expect(title == ["bug", "été"])
        #expect(FileManager.default.fileExists(atPath: indexPath))
    }

    /// A task edited in place (its title, same length; the file's size and
    /// time kept, so the index still seems to describe it): its bytes no
    /// longer hash as the index says. Reading the rest of it finds that out
    /// (the answer then comes from the board read whole), and so does a
    /// checkpoint copying it: the index written then says what the file holds.
    @Test func aTaskEditedInPlaceIsFoundOutByItsHash() throws {
        let dir = TemporaryDirectory()
        let (store, made) = try cards(dir)
        let path = dir.file("board.json")
        let indexPath = BoardIndex.path(for: path)
        let edited = {
            var file = try bytes(path)
            let title = Array("\"task 5\"".utf8)
            let at = try #require(file.indices.first { file[$0...].starts(with: title) })
            file[at + 6] = UInt8(ascii: "X")
            try overwriteKeepingTime(path, file)
        }
        try edited()
        #expect(try store.withFewTasks { $0?.task(made[5])?.title } == "task 5", "a list takes the summary's word")
        let read = try store.withFewTasks { board in board?.task(made[5]).map { ($0.body, $0.title) } }
        #expect(read?.1 == "task X")
        #expect(!FileManager.default.fileExists(atPath: indexPath))
        // Indexed again (a change reads the board whole), then edited in place again: a checkpoint finds it.
        _ = try store.update(newBoardID: ids.make(), replica: ids.make()) { board in
            try board.move(made[3], to: .done, eventID: ids.make(), by: "x", at: time)
        }
        var file = try bytes(path)
        let again = Array("\"task X\"".utf8)
        let at = try #require(file.indices.first { file[$0...].starts(with: again) })
        file[at + 6] = UInt8(ascii: "Y")
        try overwriteKeepingTime(path, file)
        try store.checkpoint()
        let index = try index(dir)
        let position = try #require(index.ids.firstIndex(of: made[5]))
        #expect(index.summary(at: position)?.title == "task Y")
        #expect(try store.withFewTasks { $0?.task(made[5])?.title } == "task Y")
    }
}
