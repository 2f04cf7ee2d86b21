import PMBoardUI
import PMCore
import PMLocalization
import Testing

/// The board's filter and team keys (DESIGN.md §13), pure: `/` types a
/// filter as it narrows the board, `@` shows only mine, `T` takes a card.
@Suite struct BoardFilterTests {
    let a = TaskID("00000001-0000-4000-8000-000000000001")!
    let b = TaskID("00000002-0000-4000-8000-000000000002")!

    @Test func slashTypesTheFilterAsItNarrowsTheBoard() {
        var state = BoardScreen(columns: [[a, b], [], []])
        #expect(state.reduce(.character("/")).isEmpty && state.mode == .filter)
        // Letters are text here, never keys: not even jamo (a Korean input method's).
        #expect(state.reduce(.character("q")) == [.filter(.init(text: "q"))])
        #expect(state.reduce(.character("회")) == [.filter(.init(text: "q회"))])
        #expect(state.reduce(.character("ㅂ")) == [.filter(.init(text: "q회ㅂ"))])
        #expect(state.reduce(.paste("의\n실")) == [.filter(.init(text: "q회ㅂ의실"))])
        #expect(state.reduce(.backspace) == [.filter(.init(text: "q회ㅂ의"))])
        #expect(state.mode == .filter)
        // Enter keeps it; the board's keys work again.
        #expect(state.reduce(.enter).isEmpty && state.mode == .board && state.filter.text == "q회ㅂ의")
        #expect(state.reduce(.character("q")) == [.quit])
    }

    /// A filter that empties the selected column: the selection goes to the
    /// nearest column with a card (issue 44, item 9); a refresh that is no
    /// filter leaves the reader in the column they went to.
    @Test func aFilterThatEmptiesTheSelectedColumnSelectsTheNearestCard() {
        var state = BoardScreen(columns: [[a], [b], []])
        _ = state.reduce(.character("2"))
        #expect(state.selected == b)
        state.refresh(columns: [[a], [], []], canUndo: false, canRedo: false, filtered: true)
        #expect(state.selected == a)
        var went = BoardScreen(columns: [[a], [], []])
        _ = went.reduce(.character("3"))
        went.refresh(columns: [[a], [], []], canUndo: false, canRedo: false)
        #expect(went.selected == nil)
        // Nothing shown anywhere: nothing to go to.
        went.refresh(columns: [[], [], []], canUndo: false, canRedo: false, filtered: true)
        #expect(went.selected == nil)
    }

    @Test func escClearsTheFilterWhetherTypingOrNot() {
        var state = BoardScreen(columns: [[a, b], [], []])
        _ = state.reduce(.character("/"))
        _ = state.reduce(.character("x"))
        #expect(state.reduce(.escape) == [.filter(.init())] && state.mode == .board)
        _ = state.reduce(.character("f"))
        _ = state.reduce(.character("y"))
        _ = state.reduce(.enter)
        #expect(state.filter.isActive)
        #expect(state.reduce(.escape) == [.filter(.init())])
        #expect(state.reduce(.escape).isEmpty, "nothing to clear")
        // Backspace on an empty filter does nothing; an arrow leaves typing and moves.
        _ = state.reduce(.character("/"))
        #expect(state.reduce(.backspace).isEmpty)
        _ = state.reduce(.down)
        #expect(state.mode == .board && state.selected == b)
    }

    @Test func mineTogglesAndTakeNamesTheSelectedCard() {
        var state = BoardScreen(columns: [[a, b], [], []])
        #expect(state.reduce(.character("@")) == [.filter(.init(mine: true))])
        #expect(state.reduce(.character("M")) == [.filter(.init(mine: false))])
        _ = state.reduce(.down)
        #expect(state.reduce(.character("T")) == [.take(b)])
        #expect(state.reduce(.character("*")) == [.take(b)])
        var empty = BoardScreen(columns: [[], [], []])
        #expect(empty.reduce(.character("T")).isEmpty && empty.notice == .nothingSelected)
    }

    @Test(arguments: ["en", "fr", "ko"])
    func aFilteredBoardSaysSoAndCardsShowWhoDoesThem(language: String) throws {
        var mine = BoardRendererTests().task(1, "Budget review", .todo, due: "2026-12-01")
        mine.assignees = ["ji-woo", "lee"]
        let other = BoardRendererTests().task(2, "디자인 검토", .doing)
        var state = BoardScreen(columns: [[mine.id], [other.id], []])
        state.refresh(columns: [[mine.id], [], []], canUndo: false, canRedo: false, changedByOthers: [mine.id])
        _ = state.reduce(.character("/"))
        _ = state.reduce(.character("B"))
        let localizer = Localizer(chain: LanguageChain([language]))
        let renderer = BoardRenderer(localizer: localizer, formatLocale: language, today: CivilDate(iso: "2026-11-21")!)
        let tasks = [mine.id: mine, other.id: other]
        let typing = renderer.render(state, tasks: tasks, width: 80, height: 12).plainText
        #expect(typing.contains(localizer.string(.boardFilterTyping, .text("B"))), "\(typing)")
        #expect(typing.contains("• Budget review"), "a card others changed is marked: \(typing)")
        #expect(typing.contains("  @ji-woo @lee"), "\(typing)")
        #expect(!typing.contains("디자인"))
        _ = state.reduce(.enter)
        _ = state.reduce(.character("@"))
        let filtered = renderer.render(state, tasks: tasks, width: 80, height: 12).plainText
        let parts = [localizer.string(.boardFilterText, .text("B")), localizer.string(.boardFilterMine)]
        #expect(filtered.contains(localizer.string(.boardFiltered, .text(parts.joined(separator: ", ")))), "\(filtered)")
        #expect(BoardRenderer.cardHeight(mine) == 3, "title, deadline, assignees")
    }
}
