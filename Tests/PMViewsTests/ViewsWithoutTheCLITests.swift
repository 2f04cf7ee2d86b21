import Foundation
import PMCore
import PMKit
import PMLocalization
import PMTestSupport
import PMViews
import Testing

/// The words of changes and refusals made as the web board makes them: a
/// session's typed results in, the terminal's sentences out, with no PMCLI
/// in the build of this target (its words are PMViews', which `pm` says).
@Suite struct ViewsWithoutTheCLITests {
    static func localizer(_ language: String) -> Localizer {
        Localizer(chain: LanguageResolver.messageChain(environment: ["LANG": language]))
    }

    static var style: TextStyle { TextStyle(color: false, formatLocale: "en_US", zone: .utc) }

    func session(_ dir: TemporaryDirectory) -> BoardSession {
        let ids = CountingIDs()
        let environment = PMEnvironment(
            now: { Date(timeIntervalSince1970: 1_795_000_000) }, makeID: { ids.make() }, timeZone: .utc, user: "ji-woo",
            boardPath: dir.file("board.json"), stateDirectory: dir.file("state"))
        return BoardSession(environment: environment)
    }

    @Test func aChangeAndItsUndoAreSaidAsPMSaysThem() throws {
        let dir = TemporaryDirectory()
        let session = session(dir)
        let sentences = Sentences(localizer: Self.localizer("en_US.UTF-8"), style: Self.style)
        let added = try session.add(title: "Write the report")
        #expect(sentences.added(added.task) == "Added 'Write the report'.")
        let moved = try session.move(.id(added.task.id), to: .doing)
        #expect(sentences.moved(moved) == "Moved 'Write the report' from TODO to DOING.")
        #expect(
            sentences.reverted(try session.undo(), redo: false)
                == "Undid your last change: moved 'Write the report' from TODO to DOING.")
        let history = HistoryView(localizer: Self.localizer("en_US.UTF-8"), style: Self.style, reader: "ji-woo")
        let lines = history.lines(try session.store().recentHistory(limit: 5))
        #expect(lines.count == 3)
        #expect(lines.last?.hasSuffix("  ji-woo  Added 'Write the report'.") == true, "\(lines)")
    }

    /// A refusal's message, without the exit code that only a process has.
    @Test func aRefusalIsSaidInTheReadersLanguage() throws {
        let dir = TemporaryDirectory()
        let session = session(dir)
        _ = try session.add(title: "A")
        _ = try session.undo()
        let refusal = try #require(throws: PMError.self) { try session.undo() }
        let english = ErrorMessages.lines(for: refusal, localizer: Self.localizer("en_US.UTF-8"), style: Self.style)
        #expect(english == ["Nothing to undo: you have made no change on this board that can still be undone."])
        let french = ErrorMessages.lines(for: PMError.taskNotFound("zz"), localizer: Self.localizer("fr_FR.UTF-8"))
        #expect(
            french == ["Aucune tâche ne correspond à «\u{202F}zz\u{202F}»."],
            "French spaces its quotes with a narrow no-break space")
        struct Unnamed: Error {}
        #expect(
            ErrorMessages.lines(for: Unnamed(), localizer: Self.localizer("en_US.UTF-8"))
                == ["Internal error (Unnamed()). Please report it."])
    }

    @Test func columnsAreNamedInEachLanguage() {
        #expect(
            TaskState.allCases.map { StateNames.name($0, localizer: Self.localizer("en_US.UTF-8")) } == ["TODO", "DOING", "DONE"])
        #expect(StateNames.name(.todo, localizer: Self.localizer("fr_FR.UTF-8")) == "À FAIRE")
        #expect(StateNames.name(.done, localizer: Self.localizer("ko_KR.UTF-8")) == "완료")
    }

    /// A passed deadline is marked for the front end to show (red in a
    /// terminal), never with a terminal's colour codes in its text.
    @Test func aTasksFieldsMarkWhatCallsForAttention() throws {
        let dir = TemporaryDirectory()
        let task = try session(dir).add(title: "Late", due: CivilDate(year: 2020, month: 1, day: 15)).task
        let today = try #require(CivilDate(year: 2026, month: 11, day: 18))
        let fields = TaskFields(localizer: Self.localizer("en_US.UTF-8"), style: Self.style, today: today)
        let due = try #require(fields.rows(task).first { $0.label == "Due" })
        #expect(due.alert && due.value.hasSuffix(" (overdue)") && !due.value.contains("\u{1B}"))
        #expect(fields.rows(task).filter(\.alert).count == 1)
    }

    @Test func aChangedBoardIsNoSentence() {
        let l = Self.localizer("en_US.UTF-8")
        #expect(SessionNotices.line(.boardChanged, localizer: l) == nil)
        #expect(SessionNotices.line(.newBoard(path: "/tmp/b.json"), localizer: l) == "Started a new board at /tmp/b.json.")
    }
}
