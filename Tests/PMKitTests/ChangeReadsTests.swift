import Foundation
import PMCore
import PMKit
import PMTestSupport
import Testing

/// A change through the session reads, through the board's index, only the
/// tasks it needs: a task damaged where it lies in the file (size and time
/// kept, so the index still describes it) is never reached by a change that
/// does not need it, and is by one that does (which refuses, as a whole read
/// would).
@Suite struct ChangeReadsTests {
    /// A session on a board of 40 tasks, checkpointed, then changed once
    /// (which writes the index), with the title `task 31` damaged in place.
    func damagedBoard(_ dir: TemporaryDirectory) throws -> BoardSession {
        let ids = CountingIDs()
        let environment = PMEnvironment(
            now: { Date(timeIntervalSince1970: 1_795_000_000) }, makeID: { ids.make() }, timeZone: .utc, user: "ji-woo",
            boardPath: dir.file("board.json"), stateDirectory: dir.file("state"))
        let session = BoardSession(environment: environment)
        var made: [TaskID] = []
        for index in 0..<40 { made.append(try session.add(title: "task \(index)", assignees: ["ji-woo"]).task.id) }
        try session.store().checkpoint()
        _ = try session.move(.id(made[0]), to: .doing)
        #expect(FileManager.default.fileExists(atPath: dir.file("board.json.index")))
        var file = Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("board.json"))))
        let title = Array("\"task 31\"".utf8)
        let at = try #require(file.indices.first { file[$0...].starts(with: title) })
        file[at] = UInt8(ascii: "{")
        try overwriteKeepingTime(dir.file("board.json"), file)
        return session
    }

    @Test func anAddWithoutAssigneesReadsNoOtherTask() throws {
        let dir = TemporaryDirectory()
        let session = try damagedBoard(dir)
        let added = try session.add(title: "new")
        #expect(added.task.title == "new")
        #expect(added.lookalikes.isEmpty)
    }

    /// An add naming someone compares the name with every assignee on the
    /// board: the index's summaries say them, and no task is read from the
    /// file. The control: a checkpoint copies every task, so it reads the
    /// damaged one and refuses.
    @Test func anAddWithAssigneesReadsTheSummariesAndACheckpointEveryTask() throws {
        let dir = TemporaryDirectory()
        let session = try damagedBoard(dir)
        let added = try session.add(title: "new", assignees: ["ji-woo"])
        #expect(added.task.assignees == ["ji-woo"])
        #expect(throws: PMError.self) { try session.store().checkpoint() }
    }
}
