import PMBoardUI
import PMCore
import Testing

/// The interactive board's pure parts: bytes to keys, keys to actions
/// (jamo and AZERTY too), and the reducer.
@Suite struct KeyDecoderTests {
    func keys(_ text: String) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.feed(Array(text.utf8))
    }

    @Test func arrowsShiftArrowsAndSpecialKeys() {
        #expect(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
        #expect(keys("\u{1B}[1;2D\u{1B}[1;2C") == [.shiftLeft, .shiftRight])
        #expect(
            keys("\u{1B}OA\u{1B}[3~\u{1B}[2~\r\t\u{1B}[Z\u{7F}") == [.up, .delete, .insert, .enter, .tab, .backTab, .backspace])
        #expect(keys("\u{1A}\u{19}\u{03}") == [.control("z"), .control("y"), .control("c")])
    }

    @Test func utf8CharactersAndJamoArriveWhole() {
        #expect(keys("hㅗé한") == [.character("h"), .character("ㅗ"), .character("é"), .character("한")])
        // Split across reads: kept until complete.
        var decoder = KeyDecoder()
        let bytes = Array("한".utf8)
        #expect(decoder.feed(Array(bytes[0..<2])).isEmpty)
        #expect(decoder.feed(Array(bytes[2...])) == [.character("한")])
        #expect(decoder.feed([0x1B, 0x5B]).isEmpty && decoder.hasPending)
        #expect(decoder.feed([0x41]) == [.up])
    }

    @Test func sgrMouseReports() {
        #expect(keys("\u{1B}[<0;10;5M") == [.mouse(MouseEvent(kind: .press, button: 0, x: 9, y: 4))])
        #expect(keys("\u{1B}[<32;40;5M") == [.mouse(MouseEvent(kind: .drag, button: 0, x: 39, y: 4))])
        #expect(keys("\u{1B}[<0;40;5m") == [.mouse(MouseEvent(kind: .release, button: 0, x: 39, y: 4))])
        #expect(
            keys("\u{1B}[<64;1;1M\u{1B}[<65;1;1M") == [
                .mouse(.init(kind: .wheelUp, x: 0, y: 0)), .mouse(.init(kind: .wheelDown, button: 1, x: 0, y: 0)),
            ])
    }

    /// A paste is text, never commands: `q` inside it does not quit.
    @Test func bracketedPasteIsText() {
        #expect(keys("\u{1B}[200~q\u{1B}[A dq\u{1B}[201~j") == [.paste("q\u{1B}[A dq"), .character("j")])
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[200~abc\u{1B}[20".utf8)).isEmpty)
        #expect(decoder.feed(Array("1~".utf8)) == [.paste("abc")])
    }

    @Test func aLoneEscapeIsEscapeOnceNothingFollows() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.flushEscape() == [.escape])
        #expect(keys("\u{1B}q") == [.escape, .character("q")])
    }
}

@Suite struct KeyMapTests {
    @Test func everyActionHasANonLetterKey() {
        for (action, keys) in KeyMap.bindings {
            let nonLetter = keys.contains { key in
                if case .character(let character) = key { return !character.isLetter }
                return true
            }
            #expect(nonLetter, "\(action) needs a key a Korean input method leaves alone")
        }
    }

    @Test func jamoCountAsTheirQWERTYKeys() {
        let pairs: [(Character, BoardAction)] = [
            ("ㅗ", .selectLeft), ("ㅓ", .selectDown), ("ㅏ", .selectUp), ("ㅣ", .selectRight), ("ㅡ", .moveMenu),
            ("ㅁ", .add), ("ㄷ", .edit), ("ㅇ", .delete), ("ㅕ", .undo), ("ㄱ", .redo), ("ㅅ", .history), ("ㅂ", .quit),
        ]
        for (jamo, action) in pairs { #expect(KeyMap.action(for: .character(jamo)) == action, "\(jamo)") }
    }

    @Test func azertyDigitsJumpToColumns() {
        #expect(KeyMap.action(for: .character("&")) == .column1)
        #expect(KeyMap.action(for: .character("é")) == .column2)
        #expect(KeyMap.action(for: .character("\"")) == .column3)
        #expect(KeyMap.action(for: .character("x")) == nil)
    }
}

@Suite struct BoardScreenTests {
    let a = TaskID("aaaaaaaa-0000-4000-8000-000000000001")!
    let b = TaskID("bbbbbbbb-0000-4000-8000-000000000002")!
    let c = TaskID("cccccccc-0000-4000-8000-000000000003")!

    func screen() -> BoardScreen { BoardScreen(columns: [[a, b], [c], []]) }

    @Test func navigationClampsAndKeepsARow() {
        var state = screen()
        #expect(state.selected == a)
        _ = state.reduce(.down)
        _ = state.reduce(.down)
        #expect(state.selected == b, "stops at the last card")
        _ = state.reduce(.character("l"))
        #expect(state.selected == c && state.row == 0)
        _ = state.reduce(.right)
        _ = state.reduce(.right)
        #expect(state.column == 2 && state.selected == nil)
        _ = state.reduce(.character("&"))
        #expect(state.column == 0)
    }

    @Test func movingByKeyAndAtTheEdges() {
        var state = screen()
        #expect(state.reduce(.shiftRight) == [.move(a, to: .doing)])
        #expect(state.reduce(.character(">")) == [.move(a, to: .doing)])
        #expect(state.reduce(.character("<")).isEmpty && state.notice == .noColumnThatWay)
        _ = state.reduce(.character("3"))
        #expect(state.reduce(.character("L")).isEmpty && state.notice == .nothingSelected)
    }

    @Test func theMoveMenuListsTheOtherColumns() {
        var state = screen()
        #expect(state.reduce(.enter).isEmpty)
        #expect(state.mode == .moveMenu(task: a, choices: [.doing, .done], chosen: 0))
        _ = state.reduce(.down)
        #expect(state.reduce(.enter) == [.move(a, to: .done)])
        #expect(state.mode == .board)
        _ = state.reduce(.character("m"))
        #expect(state.reduce(.escape).isEmpty && state.mode == .board, "Escape closes it, nothing moves")
        _ = state.reduce(.character("ㅡ"))
        #expect(state.reduce(.character("é")) == [.move(a, to: .doing)], "a column's number, AZERTY too")
    }

    @Test func deleteAsksAndNoIsTheDefault() {
        var state = screen()
        _ = state.reduce(.character("d"))
        #expect(state.mode == .confirmDelete(task: a, yes: false))
        #expect(state.reduce(.enter).isEmpty && state.mode == .board, "Enter on the default (No) deletes nothing")
        _ = state.reduce(.delete)
        #expect(state.reduce(.character("y")) == [.delete(a)])
        _ = state.reduce(.character("d"))
        #expect(state.reduce(.character("n")).isEmpty && state.mode == .board)
    }

    /// The question looks like a list, so it behaves like one: the arrows and
    /// hjkl go between the answers, a stray key neither answers nor closes it.
    @Test func theDeleteQuestionIsAListOfTwoAnswers() {
        var state = screen()
        _ = state.reduce(.character("d"))
        #expect(state.reduce(.down).isEmpty && state.mode == .confirmDelete(task: a, yes: true))
        _ = state.reduce(.character("k"))
        #expect(state.mode == .confirmDelete(task: a, yes: false))
        _ = state.reduce(.character("j"))
        #expect(state.mode == .confirmDelete(task: a, yes: true))
        _ = state.reduce(.up)
        _ = state.reduce(.right)
        #expect(state.mode == .confirmDelete(task: a, yes: true), "→ goes to the other answer")
        for key in [Key.character("x"), .character("ㅇ"), .character("1"), .paste("y")] {
            #expect(state.reduce(key).isEmpty && state.mode == .confirmDelete(task: a, yes: true), "\(key) is ignored")
        }
        #expect(state.reduce(.enter) == [.delete(a)])
        _ = state.reduce(.character("d"))
        #expect(state.reduce(.escape).isEmpty && state.mode == .board)
        _ = state.reduce(.character("d"))
        #expect(state.reduce(.control("c")).isEmpty && state.mode == .board, "Ctrl-C cancels the question, it does not quit")
    }

    /// French answers with `o` (Oui), Korean with the jamo on `y`/`n`; `?` lists the question's keys and goes back to it.
    @Test func theQuestionTakesTheLanguagesOwnLetters() {
        var state = screen()
        state.answers = BoardScreen.Answers(yes: ["o", "O", "y", "Y"], no: ["n", "N"])
        _ = state.reduce(.character("d"))
        #expect(state.reduce(.character("o")) == [.delete(a)], "o is Oui")
        state.answers = BoardScreen.Answers(yes: ["y", "Y", "ㅛ"], no: ["n", "N", "ㅜ"])
        _ = state.reduce(.character("d"))
        #expect(state.reduce(.character("ㅜ")).isEmpty && state.mode == .board)
        _ = state.reduce(.character("d"))
        _ = state.reduce(.character("?"))
        #expect(state.mode == .help && state.underHelp == .confirmDelete(task: a, yes: false))
        _ = state.reduce(.escape)
        #expect(state.mode == .confirmDelete(task: a, yes: false), "closing help goes back to the question")
        #expect(state.reduce(.character("ㅛ")) == [.delete(a)])
    }

    /// A card in conflict: the conflict key opens its values, Enter keeps the one chosen.
    @Test func conflictsAreChosenFromTheBoard() {
        var state = screen()
        #expect(state.reduce(.character("c")) == [.openConflicts(a)])
        state.openConflicts(a, choices: [])
        #expect(state.mode == .board && state.notice == .noConflict)
        let choices = [
            ConflictChoice(field: "title", value: .string("A"), shown: true),
            ConflictChoice(field: "title", value: .string("A2"), shown: false),
        ]
        state.openConflicts(a, choices: choices)
        _ = state.reduce(.down)
        #expect(state.reduce(.enter) == [.resolve(a, choices[1])])
        #expect(state.mode == .board)
    }

    @Test func undoAndRedoSayWhyWhenUnavailable() {
        var state = screen()
        #expect(state.reduce(.character("u")).isEmpty && state.notice == .nothingToUndo)
        #expect(state.reduce(.control("y")).isEmpty && state.notice == .nothingToRedo)
        state.refresh(columns: [[a, b], [c], []], canUndo: true, canRedo: false, undoBlocked: true)
        #expect(state.reduce(.control("z")).isEmpty && state.notice == .undoBlocked)
        state.refresh(columns: [[a, b], [c], []], canUndo: true, canRedo: true)
        #expect(state.reduce(.character("ㅕ")) == [.undo])
        #expect(state.reduce(.character("r")) == [.redo])
    }

    /// Another process moved the selected card: the selection follows it.
    @Test func aRefreshKeepsTheSelectionByTask() {
        var state = screen()
        _ = state.reduce(.down)
        state.refresh(columns: [[a], [c], [b]], canUndo: false, canRedo: false)
        #expect(state.selected == b && state.column == 2)
        state.refresh(columns: [[a], [c], []], canUndo: false, canRedo: false)
        #expect(state.column == 2 && state.selected == nil, "gone: the place stays")
    }

    @Test func theWheelScrollsTheSelection() {
        var state = screen()
        _ = state.reduce(.mouse(MouseEvent(kind: .wheelDown, x: 0, y: 0)))
        #expect(state.selected == b)
        _ = state.reduce(.mouse(MouseEvent(kind: .wheelUp, x: 0, y: 0)))
        #expect(state.selected == a)
    }

    @Test func panelsAndQuit() {
        var state = screen()
        _ = state.reduce(.character("?"))
        #expect(state.mode == .help)
        #expect(state.reduce(.character("q")).isEmpty && state.mode == .board, "q closes help, it does not quit")
        _ = state.reduce(.character("t"))
        #expect(state.mode == .history(task: nil))
        _ = state.reduce(.tab)
        #expect(state.mode == .history(task: a), "Tab: the selected card's own history")
        _ = state.reduce(.tab)
        #expect(state.mode == .history(task: nil))
        _ = state.reduce(.escape)
        #expect(state.reduce(.character("q")) == [.quit])
        #expect(state.reduce(.paste("q")).isEmpty, "pasted text is never a command")
        #expect(state.reduce(.character("e")) == [.openEdit(a)])
        #expect(state.reduce(.character("a")).isEmpty && state.mode == .form(TaskForm()), "add opens an empty form")
    }
}

@Suite struct TaskFormTests {
    func typed(_ text: String, into form: inout TaskForm) {
        for character in text { _ = form.reduce(.character(character)) }
    }

    @Test func typingEditingAndTheCaret() {
        var form = TaskForm()
        typed("회의 준비", into: &form)
        #expect(form.title == "회의 준비" && form.caret == 5)
        _ = form.reduce(.left)
        _ = form.reduce(.left)
        _ = form.reduce(.backspace)
        #expect(form.title == "회의준비" && form.caret == 2, "Hangul syllables are one character each")
        _ = form.reduce(.home)
        typed("★", into: &form)
        #expect(form.title == "★회의준비")
        _ = form.reduce(.end)
        _ = form.reduce(.delete)
        #expect(form.title == "★회의준비")
        _ = form.reduce(.paste("a\nb"))
        #expect(form.title == "★회의준비a b", "a title stays one line")
    }

    @Test func fieldsBodyLinesAndSaving() {
        var form = TaskForm()
        typed("Title", into: &form)
        _ = form.reduce(.tab)
        #expect(form.focus == .body)
        typed("one", into: &form)
        #expect(form.reduce(.enter) == nil, "Enter in the body is a new line")
        typed("two", into: &form)
        #expect(form.body == "one\ntwo")
        _ = form.reduce(.tab)
        typed("demain", into: &form)
        #expect(form.due == "demain")
        #expect(form.reduce(.enter) == .save)
        _ = form.reduce(.backTab)
        #expect(form.focus == .body && form.reduce(.control("s")) == .save)
    }

    @Test func escapeAsksBeforeLosingAChange() {
        var clean = TaskForm(title: "Same")
        #expect(clean.reduce(.escape) == .close, "nothing changed: it just closes")
        var form = TaskForm(title: "Before")
        typed("!", into: &form)
        #expect(form.reduce(.escape) == nil && form.confirmingDiscard)
        #expect(form.reduce(.character("n")) == nil && !form.confirmingDiscard && form.title == "Before!", "keeps editing")
        _ = form.reduce(.escape)
        #expect(form.reduce(.character("ㅛ")) == .close, "y, or its jamo, discards")
    }
}
