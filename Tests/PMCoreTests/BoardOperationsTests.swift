import PMCore
import PMICU
import PMTestSupport
import Testing

@Suite struct BoardOperationsTests {
    let ids = CountingIDs()
    let now = "2026-11-21T10:00:00.000Z"

    func board(_ titles: [String] = ["Write report", "Call Camille"]) throws -> Board {
        var board = Board(id: ids.make())
        for title in titles {
            try board.add(title: title, id: ids.make(), eventID: ids.make(), by: "ji-woo", at: now)
        }
        return board
    }

    @Test func addingPutsATaskInTodoAndRecordsWhoAndWhen() throws {
        var board = Board(id: ids.make())
        let task = try board.add(
            title: "Write report", body: "Q3", due: CivilDate(year: 2026, month: 12, day: 1), id: ids.make(), eventID: ids.make(),
            by: "camille", at: now)
        #expect(board.tasks == [task])
        #expect(task.state == .todo)
        #expect(task.createdAt == now && task.updatedAt == now)
        #expect(board.history.appended.map(\.action) == [.added])
        #expect(board.history.appended.first?.by == "camille")
        #expect(board.history.appended.first?.to == .todo)
    }

    @Test func movingChangesStateAndRecordsFromAndTo() throws {
        var board = try board()
        let id = board.tasks[0].id
        let (before, after) = try board.move(id, to: .doing, eventID: ids.make(), by: "ji-woo", at: "2026-11-22T00:00:00.000Z")
        #expect(before.state == .todo && after.state == .doing)
        #expect(after.updatedAt == "2026-11-22T00:00:00.000Z")
        let event = try #require(board.history.appended.last)
        #expect(event.action == .moved && event.from == .todo && event.to == .doing && event.title == "Write report")
    }

    @Test func movingToTheSameColumnRecordsNothing() throws {
        var board = try board()
        let count = board.history.appended.count
        try board.move(board.tasks[0].id, to: .todo, eventID: ids.make(), by: "x", at: now)
        #expect(board.history.appended.count == count)
    }

    @Test func editingRecordsEachChangedField() throws {
        var board = try board()
        let id = board.tasks[1].id
        let due = CivilDate(year: 2027, month: 1, day: 2)
        try board.edit(id, .init(title: "Call Camille back", due: .some(due)), eventID: ids.make(), by: "x", at: now)
        let event = try #require(board.history.appended.last)
        #expect(event.changes.map(\.field) == ["title", "due"])
        #expect(event.changes[1].from == .null && event.changes[1].to == .string("2027-01-02"))
        #expect(board.task(id)?.title == "Call Camille back")
        try board.edit(id, .init(due: .some(nil)), eventID: ids.make(), by: "x", at: now)
        #expect(board.task(id)?.due == nil)
    }

    @Test func deletingRemovesTheTaskAndRemembersItsColumn() throws {
        var board = try board()
        let id = board.tasks[0].id
        try board.move(id, to: .done, eventID: ids.make(), by: "x", at: now)
        let removed = try board.delete(id, eventID: ids.make(), by: "x", at: now)
        #expect(removed.title == "Write report")
        #expect(board.task(id) == nil)
        #expect(board.history.appended.last?.from == .done)
    }

    @Test func unknownIDsAreRefused() throws {
        var board = try board()
        let stranger = ids.make()
        #expect(throws: PMError.taskNotFound(stranger.rawValue)) {
            try board.delete(stranger, eventID: ids.make(), by: "x", at: now)
        }
    }

    @Test(arguments: ["", "   ", "\t"])
    func blankTitlesAreRefused(_ title: String) throws {
        var board = Board(id: ids.make())
        #expect(throws: PMError.emptyTitle) { try board.add(title: title, id: ids.make(), eventID: ids.make(), by: "x", at: now) }
        #expect(board.tasks.isEmpty)
    }

    @Test func limitsAreEnforcedInCharactersNotBytes() throws {
        var board = Board(id: ids.make())
        try board.add(title: String(repeating: "한", count: 200), id: ids.make(), eventID: ids.make(), by: "x", at: now)
        #expect(throws: PMError.titleTooLong(length: 201, limit: 200)) {
            try board.add(title: String(repeating: "é", count: 201), id: ids.make(), eventID: ids.make(), by: "x", at: now)
        }
        #expect(throws: PMError.bodyTooLong(length: 1001, limit: 1000)) {
            try board.add(
                title: "t", body: String(repeating: "b", count: 1001), id: ids.make(), eventID: ids.make(), by: "x", at: now)
        }
    }

    /// Named, so that the test run's own output shows no raw escape (a
    /// colour code there turned the rest of the log red).
    @Test(arguments: [
        NamedText("colour escape", "a\u{1B}[31mb"), NamedText("bell", "bell\u{07}"),
        NamedText("right-to-left override", "rtl\u{202E}txt"), NamedText("NUL", "nul\u{0}"),
        NamedText("C1 CSI", "c1\u{9B}x"), NamedText("line break", "line\nbreak"),
    ])
    func controlAndBidiCharactersInTypedTitlesAreRefused(_ title: NamedText) throws {
        var board = Board(id: ids.make())
        #expect(throws: PMError.self) {
            try board.add(title: title.text, id: ids.make(), eventID: ids.make(), by: "x", at: now)
        }
    }

    @Test func bodiesMayHaveLinesButNotEscapes() throws {
        var board = Board(id: ids.make())
        try board.add(title: "t", body: "line 1\nline 2\tend", id: ids.make(), eventID: ids.make(), by: "x", at: now)
        #expect(throws: PMError.unsafeBody("\u{1B}")) {
            try board.add(title: "t", body: "x\u{1B}]0;pwned\u{07}", id: ids.make(), eventID: ids.make(), by: "x", at: now)
        }
    }

    @Test func escapingShowsControlCharactersVisibly() {
        #expect(TextSafety.escaped("a\u{1B}[2Jb") == "a\\u{1B}[2Jb")
        #expect(TextSafety.escaped("x\u{202E}y") == "x\\u{202E}y")
        #expect(TextSafety.escaped("plain 한국어") == "plain 한국어")
        #expect(TextSafety.escaped("a\nb", keepNewlines: true) == "a\nb")
    }
}

/// A test argument shown by its name in the test run's output, whatever
/// bytes it holds.
struct NamedText: CustomTestStringConvertible, Sendable {
    let name: String
    let text: String
    init(_ name: String, _ text: String) {
        self.name = name
        self.text = text
    }
    var testDescription: String { name }
}
