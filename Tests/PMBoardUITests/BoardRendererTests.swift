import Dispatch
import Foundation
import PMBoardUI
import PMCore
import PMICU
import PMLocalization
import Testing

/// Golden screens from the pure renderer: three languages, three sizes,
/// Korean, French (composed and decomposed) and emoji titles. Set
/// PM_UPDATE_GOLDENS=1 to write them after a deliberate change, then read the diff.
@Suite struct BoardRendererTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    func task(_ n: Int, _ title: String, _ state: TaskState, due: String? = nil) -> BoardTask {
        BoardTask(
            id: TaskID(String(format: "%08x-0000-4000-8000-%012x", n, n))!, title: title, state: state,
            due: due.flatMap(CivilDate.init(iso:)), createdAt: "2026-11-0\(n % 9 + 1)T09:00:00.000Z",
            updatedAt: "2026-11-0\(n % 9 + 1)T09:00:00.000Z")
    }

    func board() -> [BoardTask] {
        var conflicted = task(4, "Budget 2027", .doing)
        conflicted.conflicts = ["title": [.string("Budget 2027 (v2)")]]
        return [
            task(1, "Write the quarterly report", .todo, due: "2026-11-20"),
            task(2, "디자인 검토 회의 준비하기", .todo, due: "2026-12-01"),
            task(3, "Réunion d\u{2019}équipe à Lyon", .doing),
            conflicted,
            task(5, "Ta\u{302}che de\u{301}compose\u{301}e 🚀🎉", .done, due: "2026-11-10"),
            task(6, "Release 1.0 👩‍💻", .done),
        ]
    }

    func screen(
        _ language: String, width: Int, height: Int, mode: (inout BoardScreen) -> Void = { _ in },
        status: (Localizer) -> BoardStatus = { _ in BoardStatus() }
    ) -> String {
        let tasks = board()
        let columns = TaskState.allCases.map { state in tasks.filter { $0.state == state }.map(\.id) }
        var state = BoardScreen(columns: columns)
        state.refresh(
            columns: columns, canUndo: true, canRedo: false, conflicted: Set(tasks.filter { !$0.conflicts.isEmpty }.map(\.id)))
        let localizer = Localizer(chain: LanguageChain([language]))
        state.answers = BoardScreen.Answers(localizer)
        mode(&state)
        let locale = ["en": "en_US", "fr": "fr_FR", "ko": "ko_KR"][language] ?? "en_US"
        let renderer = BoardRenderer(localizer: localizer, formatLocale: locale, today: CivilDate(iso: "2026-11-21")!)
        let byID = Dictionary(uniqueKeysWithValues: tasks.map { ($0.id, $0) })
        return renderer.render(state, tasks: byID, width: width, height: height, status: status(localizer)).plainText + "\n"
    }

    func check(_ name: String, _ text: String) throws {
        let file = Self.fixtures.appendingPathComponent(name + ".txt")
        if ProcessInfo.processInfo.environment["PM_UPDATE_GOLDENS"] == "1" {
            try Data(text.utf8).write(to: file)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(text == expected, "\(name) differs:\n\(text)")
    }

    @Test(arguments: ["en", "fr", "ko"])
    func goldenBoards(language: String) throws {
        for (width, height) in [(120, 40), (80, 24), (50, 20)] {
            try check("board-\(language)-\(width)x\(height)", screen(language, width: width, height: height))
        }
        try check("menu-\(language)-80x24", screen(language, width: 80, height: 24) { _ = $0.reduce(.enter) })
        try check("delete-\(language)-80x24", screen(language, width: 80, height: 24) { _ = $0.reduce(.character("d")) })
        try check("help-\(language)-80x24", screen(language, width: 80, height: 24) { _ = $0.reduce(.character("?")) })
        // `?` over the delete question lists the question's keys.
        try check(
            "help-delete-\(language)-80x24",
            screen(language, width: 80, height: 24) { state in
                _ = state.reduce(.character("d"))
                _ = state.reduce(.character("?"))
            })
        // The conflicted card (DOING's second): its values, the shown one first.
        let conflicted = board()[3]
        try check(
            "conflicts-\(language)-80x24",
            screen(language, width: 80, height: 24) { state in
                _ = state.reduce(.right)
                _ = state.reduce(.down)
                state.openConflicts(conflicted.id, choices: ConflictChoice.all(of: conflicted))
            })
        // Offline: the indicator stays at the right while a message is up.
        try check(
            "offline-\(language)-80x24",
            screen(
                language, width: 80, height: 24,
                status: { l in
                    BoardStatus(
                        link: .offline, indicator: l.string(.boardLinkOffline, .text("14:02")),
                        summary: l.plural(.listSync, count: 2, .text("14:00")), message: l.string(.messageAdded, .text("Budget")))
                }))
    }

    /// A long column says how many cards are out of sight, above and below.
    @Test func cardsOutOfSightAreCounted() {
        let tasks = (1...20).map { task($0, "Card \($0)", .todo, due: "2026-12-01") }
        let byID = Dictionary(uniqueKeysWithValues: tasks.map { ($0.id, $0) })
        var state = BoardScreen(columns: [tasks.map(\.id), [], []])
        let renderer = BoardRenderer(
            localizer: Localizer(chain: LanguageChain(["en"])), formatLocale: "en_US", today: CivilDate(iso: "2026-11-21")!)
        func marks(_ text: String) -> [String] {
            text.split(separator: "\n").map { $0.prefix(25).trimmingCharacters(in: .whitespaces) }.filter { $0.hasSuffix("more") }
        }
        let top = renderer.render(state, tasks: byID, width: 80, height: 24).plainText
        #expect(marks(top) == ["↓ 11 more"], "\(top)")
        for _ in 0..<19 { _ = state.reduce(.down) }
        let bottom = renderer.render(state, tasks: byID, width: 80, height: 24).plainText
        #expect(marks(bottom) == ["↑ 12 more"] && bottom.contains("Card 20"), "\(bottom)")
        for _ in 0..<9 { _ = state.reduce(.up) }
        let middle = renderer.render(state, tasks: byID, width: 80, height: 24).plainText
        #expect(marks(middle).count == 2 && middle.contains("▌Card 11"), "\(middle)")
    }

    /// The values of a card in conflict, field by field, the shown one first, nothing twice.
    @Test func conflictChoicesListEveryValue() {
        var card = task(9, "Plan", .todo, due: "2026-12-01")
        card.conflicts = ["title": [.string("Plan B"), .string("Plan")], "due": [.null], "state": [.string("done")]]
        let choices = ConflictChoice.all(of: card)
        #expect(choices.map(\.field) == ["due", "due", "state", "state", "title", "title"])
        #expect(choices.filter(\.shown).map(\.value) == [.string("2026-12-01"), .string("todo"), .string("Plan")])
        #expect(choices.map(\.value).contains(.null))
    }

    /// Every row fits the width in cells, whatever the language and the size.
    @Test func rowsNeverExceedTheWidth() {
        for language in ["en", "fr", "ko"] {
            for (width, height) in [(120, 40), (80, 24), (50, 20), (30, 10)] {
                let text = screen(language, width: width, height: height)
                for line in text.split(separator: "\n") {
                    #expect(TerminalCells.width(of: String(line)) <= width, "\(language) \(width): \(line)")
                }
            }
        }
    }
}

/// The interactive board at the size of a big team's board.
@Suite struct BoardSpeedTests {
    /// A key on a 10k-task board, to the screen repainted: a redraw sends
    /// only the rows that changed (the time, median of 30, goes to the bench).
    @Test func aKeyOnATenThousandCardBoardRepaintsOnlyWhatChanged() {
        var tasks: [TaskID: BoardTask] = [:]
        var columns: [[TaskID]] = [[], [], []]
        for n in 0..<10_000 {
            let id = TaskID(String(format: "%08x-0000-4000-8000-%012x", n, n))!
            let state = TaskState.allCases[n % 3]
            tasks[id] = BoardTask(
                id: id, title: "Card number \(n) 회의 réunion", state: state,
                due: n % 2 == 0 ? CivilDate(iso: "2026-12-0\(n % 9 + 1)") : nil, createdAt: "2026-11-01T09:00:00.000Z",
                updatedAt: "2026-11-01T09:00:00.000Z")
            columns[n % 3].append(id)
        }
        var state = BoardScreen(columns: columns)
        for _ in 0..<2000 { _ = state.reduce(.down) }
        let renderer = BoardRenderer(
            localizer: Localizer(chain: LanguageChain(["ko"])), formatLocale: "ko_KR", today: CivilDate(iso: "2026-11-21")!)
        var previous = renderer.render(state, tasks: tasks, width: 120, height: 40)
        var times: [Double] = []
        var changedRows: [Int] = []
        for _ in 0..<30 {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = state.reduce(.down)
            let screen = renderer.render(state, tasks: tasks, width: 120, height: 40)
            let update = screen.update(from: previous)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
            changedRows.append(
                update.components(separatedBy: "\u{1B}[").filter { $0.hasSuffix(";1H") || $0.contains(";1H") }.count)
            previous = screen
        }
        // From the top, without scrolling: only the two cards' rows change.
        var top = BoardScreen(columns: columns)
        let before = renderer.render(top, tasks: tasks, width: 120, height: 40)
        _ = top.reduce(.down)
        let rows =
            renderer.render(top, tasks: tasks, width: 120, height: 40).update(from: before)
            .components(separatedBy: ";1H").count - 1
        #expect(rows > 0 && rows <= 4, "\(rows) rows sent for a selection that moved by one card")
        let median = times.sorted()[times.count / 2]
        // Its time is the bench's (bench/run records it against the 16 ms of
        // a frame): on a loaded 2-core machine a test cannot tell (issue 44).
        if let out = ProcessInfo.processInfo.environment["PM_BENCH_BOARD_OUT"] {
            try? String(median).write(toFile: out, atomically: true, encoding: .utf8)
        }
        #expect(changedRows.allSatisfy { $0 < 40 }, "only changed rows are sent: \(changedRows)")
    }

    /// NO_COLOR: no red in what is sent; bold and reverse (not colours) stay.
    @Test func noColorSendsNoRed() {
        var screen = Screen(width: 20, height: 1)
        screen.write("late", x: 0, y: 0, look: [.red, .bold])
        #expect(screen.update(from: nil, color: true).contains("\u{1B}[31m"))
        let plain = screen.update(from: nil, color: false)
        #expect(!plain.contains("\u{1B}[31m") && plain.contains("\u{1B}[1m"))
    }
}

/// A dialog over wide characters (issue 44, item 12): a wide character of
/// the board behind, half covered by the dialog's edge, becomes a space; the
/// frame never moves.
@Suite struct WideCharacterOverlayTests {
    @Test func aHalfCoveredWideCharacterBecomesASpaceAtEitherEdge() {
        var screen = Screen(width: 12, height: 1)
        screen.write("가나다라마바", x: 0, y: 0)
        screen.write("|ab|", x: 1, y: 0)
        #expect(screen.rows[0].map(\.text).joined() == " |ab|" + " " + "라마바", "\(screen.plainText)")
        #expect(screen.rows[0].map { TerminalCells.width(of: $0.text) }.reduce(0, +) == 12)
    }

    @Test(arguments: ["ko", "fr"])
    func theFrameStaysInItsColumnOverAKoreanBoard(language: String) {
        let titles = ["디자인 검토 회의 준비하기와 정리", "가 보고서 검토 및 수정 작업", "나 팀 회의록 정리하기 계속"]
        var tasks: [BoardTask] = []
        for (n, state) in TaskState.allCases.enumerated() {
            for (m, title) in titles.enumerated() {
                let number = n * 3 + m + 1
                tasks.append(
                    BoardTask(
                        id: TaskID(String(format: "%08x-0000-4000-8000-%012x", number, number))!,
                        title: String(repeating: "한", count: m + n) + title, state: state,
                        createdAt: "2026-11-01T09:00:00.000Z", updatedAt: "2026-11-01T09:00:00.000Z"))
            }
        }
        let byID = Dictionary(uniqueKeysWithValues: tasks.map { ($0.id, $0) })
        let columns = TaskState.allCases.map { state in tasks.filter { $0.state == state }.map(\.id) }
        let localizer = Localizer(chain: LanguageChain([language]))
        let renderer = BoardRenderer(localizer: localizer, formatLocale: "ko_KR", today: CivilDate(iso: "2026-11-21")!)
        let first = tasks[0]
        for dialog in ["delete", "edit", "add"] {
            var state = BoardScreen(columns: columns)
            state.refresh(columns: columns, canUndo: false, canRedo: false, conflicted: [])
            state.answers = BoardScreen.Answers(localizer)
            switch dialog {
            case "delete": _ = state.reduce(.character("d"))
            case "edit": state.openForm(TaskForm(task: first.id, title: first.title, due: "2026-12-01", assignees: "지수"))
            default: state.openForm(TaskForm())
            }
            let text = renderer.render(state, tasks: byID, width: 80, height: 24).plainText
            // The cell where each row's frame begins, counted in cells.
            let edges = text.split(separator: "\n").compactMap { line -> Int? in
                guard let index = line.firstIndex(where: { "│┌└├".contains($0) }) else { return nil }
                return TerminalCells.width(of: String(line[..<index]))
            }
            #expect(edges.count >= 3 && Set(edges).count == 1, "\(dialog): \(edges)\n\(text)")
        }
    }
}

/// Every line keeps its meaning at 80 columns (issue 44, item 13): the
/// discard question keeps its answer keys, the status line drops the least
/// useful part (or says it shorter) before cutting one, the history panel
/// drops the date before the change.
@Suite struct EightyColumnTests {
    func renderer(_ language: String) -> (Localizer, BoardRenderer) {
        let localizer = Localizer(chain: LanguageChain([language]))
        let locale = ["en": "en_US", "fr": "fr_FR", "ko": "ko_KR"][language] ?? "en_US"
        return (localizer, BoardRenderer(localizer: localizer, formatLocale: locale, today: CivilDate(iso: "2026-11-21")!))
    }

    @Test(arguments: ["en", "fr", "ko"])
    func theDiscardQuestionKeepsItsKeys(language: String) {
        let (localizer, renderer) = renderer(language)
        var form = TaskForm(title: "x")
        form.confirmingDiscard = true
        var state = BoardScreen(columns: [[], [], []])
        state.openForm(form)
        let text = renderer.render(state, tasks: [:], width: 80, height: 24).plainText
        let question = localizer.string(.boardFormDiscard)
        #expect(text.contains(question), "\(text)")
    }

    @Test(arguments: ["en", "fr", "ko"])
    func theStatusLineDropsOrShortensAPartRatherThanCutIt(language: String) {
        let (l, renderer) = renderer(language)
        let news = BoardStatus.Part(l.plural(.newsWaiting, count: 3), short: l.plural(.newsWaitingShort, count: 3))
        let sync = BoardStatus.Part(
            l.plural(.listSync, count: 12, .text("2026년 11월 21일 오후 11:49 / 21 nov. 2026, 23:49")),
            short: l.plural(.boardSyncShort, count: 12, .text("23:49")))
        let status = BoardStatus(link: .online, indicator: l.string(.boardLinkOnline), parts: [news, sync])
        let state = BoardScreen(columns: [[], [], []])
        for width in [50, 80, 120, 200] {
            let line =
                renderer.render(state, tasks: [:], width: width, height: 24, status: status).plainText
                .split(separator: "\n").first { $0.contains(l.string(.boardLinkOnline)) } ?? ""
            #expect(line.contains("pm news"), "\(width): \(line)")
            #expect(!line.contains("…"), "no part cut at \(width): \(line)")
            if width >= 80 { #expect(line.contains("12"), "what waits is said at \(width): \(line)") }
        }
    }

    /// An undo's line at 80 columns: the link to the remote keeps its
    /// symbol and the message gets the room (it was cut before the task's
    /// name in French); offline is still said whole.
    @Test(arguments: ["en", "fr", "ko"])
    func theLastActionsMessageTakesTheLinksRoomWhenItNeedsIt(language: String) {
        let (l, renderer) = renderer(language)
        let clause = l.string(
            .historyClauseMoved, .text("Budget 2027"), .text(l.string(.columnDone)), .text(l.string(.columnTodo)))
        let message = l.string(.messageUndone, .text(clause))
        let state = BoardScreen(columns: [[], [], []])
        for (link, indicator) in [
            (BoardStatus.Link.local, l.string(.boardLinkLocal)), (.offline, l.string(.boardLinkOffline, .text("08:24"))),
        ] {
            let status = BoardStatus(link: link, indicator: indicator, message: message)
            let lines = renderer.render(state, tasks: [:], width: 80, height: 24, status: status).plainText
                .split(separator: "\n")
            let line = lines.first { $0.contains(String(message.prefix(10))) } ?? ""
            if link == .offline {
                #expect(line.contains(indicator), "offline is said whole: \(line)")
            } else if TerminalCells.width(of: message) <= 76 {
                #expect(line.contains(message) && line.hasSuffix(String(indicator.first!)), "\(line)")
            }
        }
    }

    @Test(arguments: ["en", "fr", "ko"])
    func historyLinesDropTheDateBeforeTheChange(language: String) {
        let (l, renderer) = renderer(language)
        let what = l.string(.historyUndid, .text("'디자인 검토 회의 준비하기와 정리'를 할 일에서 진행 중으로 옮긴 것을 되돌림"))
        let line = BoardHistoryLine(when: "2026년 11월 21일 오후 11:49", shortWhen: "오후 11:49", who: "지수", what: what)
        var state = BoardScreen(columns: [[], [], []])
        _ = state.reduce(.character("t"))
        for width in [60, 80, 120] {
            let text = renderer.render(state, tasks: [:], width: width, height: 24, history: [line]).plainText
            let shown = text.split(separator: "\n").first { $0.contains("지수") } ?? ""
            let fits = TerminalCells.width(of: "지수  " + what) <= width - 2
            if fits { #expect(shown.hasSuffix(what), "the change whole at \(width): \(shown)") }
        }
    }
}
