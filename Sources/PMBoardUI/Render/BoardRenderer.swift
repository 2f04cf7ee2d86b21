import FoundationEssentials
import PMCore
import PMICU
import PMLocalization

/// Draws the board from its state, pure: the same state, tasks, size and
/// language always give the same screen (DESIGN.md §11).
public struct BoardRenderer {
    public var localizer: Localizer
    public var formatLocale: String
    public var today: CivilDate
    /// The reader's zone, and the instant drawn at: a deadline with a time
    /// is shown at the reader's time and is overdue once it has passed.
    public var zone: Zone = .utc
    public var now: Date?

    /// Checks a typed deadline as it is typed: what date it means (in the
    /// reader's format), or why it is not one. Nil: not checked.
    public var checkDue: (@Sendable (String) -> (valid: Bool, text: String))?

    /// A card's priority mark (before its title), its line of labels and
    /// checklist progress (under it), and its priority's word (the form's),
    /// in the reader's words; nil: none shown.
    public var cardMarks: (@Sendable (BoardTask) -> (priority: String, line: String, word: String))?

    /// A card's checklist and comments as lines, for its own history panel
    /// (its number and tick a line each; each comment's author, time and
    /// text); nil: none shown.
    public var cardDetails: (@Sendable (BoardTask) -> [String])?

    /// The narrowest a column may be before the board shows one at a time.
    public static let minimumColumnWidth = 22

    public init(localizer: Localizer, formatLocale: String, today: CivilDate) {
        self.localizer = localizer
        self.formatLocale = formatLocale
        self.today = today
    }

    /// The screen for `state`, with `tasks` by id, the `status` line (the
    /// link to the remote always at its right), and `reminders`: the cards
    /// whose reminder is due now (their deadline day, from 09:00).
    public func render(
        _ state: BoardScreen, tasks: [TaskID: BoardTask], width: Int, height: Int, status: BoardStatus = BoardStatus(),
        history: [BoardHistoryLine] = [], reminders: Set<TaskID> = []
    ) -> Screen {
        var screen = Screen(width: width, height: height)
        let deadlines = DeadlineFormatter(locale: formatLocale, localizer: localizer)
        let footer = footerLines(state, width: screen.width)
        let body = max(1, screen.height - 3 - footer.count)
        let gap = 2
        let sideBySide = (screen.width - 2 * gap) / 3 >= Self.minimumColumnWidth
        let cards = Cards(
            tasks: tasks, deadlines: deadlines, reminders: reminders, body: body, changed: state.changedByOthers)
        if sideBySide {
            let columnWidth = (screen.width - 2 * gap) / 3
            for index in 0..<3 {
                drawColumn(index, state: state, cards: cards, into: &screen, x: index * (columnWidth + gap), width: columnWidth)
            }
        } else {
            // Narrow: one column at a time, with tabs naming the others.
            var x = 0
            for index in 0..<3 {
                let label = header(index, state: state)
                let look: ScreenCell.Look = index == state.column || index == state.drag?.over ? [.bold, .reverse] : [.dim]
                x = screen.write(label, x: x, y: 0, look: look) + 1
            }
            drawColumn(state.column, state: state, cards: cards, into: &screen, x: 0, width: screen.width, header: false)
        }
        drawStatus(state, status: status, tasks: tasks, into: &screen, y: screen.height - 1 - footer.count)
        drawFooter(footer, into: &screen)
        drawPanel(state, tasks: tasks, history: history, into: &screen)
        return screen
    }

    private func drawPanel(
        _ state: BoardScreen, tasks: [TaskID: BoardTask], history: [BoardHistoryLine], into screen: inout Screen
    ) {
        let title = { (id: TaskID) in MessageArgument.text(TextSafety.escaped(tasks[id]?.title ?? "")) }
        switch state.mode {
        case .board, .filter: break
        case .moveMenu(let task, let choices, let chosen):
            let lines = choices.map { "\(TaskState.allCases.firstIndex(of: $0).map { $0 + 1 } ?? 0)  " + name($0) }
            drawBox(
                title: localizer.string(.boardMoveTitle, title(task)), lines: lines, chosen: chosen,
                hint: localizer.string(.boardMenuHint), into: &screen)
        case .confirmDelete(let task, let yes):
            let keys = answerKeys(state.answers)
            drawBox(
                title: localizer.string(.boardConfirmDelete, title(task)),
                lines: [localizer.string(.boardNo), localizer.string(.boardYes)], chosen: yes ? 1 : 0,
                hint: localizer.string(.boardConfirmHint, .text(keys.yes), .text(keys.no)), into: &screen)
        case .conflicts(let task, let choices, let chosen):
            drawBox(
                title: localizer.string(.boardConflictTitle, title(task)), lines: choices.map(conflictLine), chosen: chosen,
                hint: localizer.string(.boardMenuHint), into: &screen)
        case .help:
            drawHelp(state, into: &screen)
        case .history(let task):
            drawHistory(history, task: task.flatMap { tasks[$0] }, into: &screen)
        case .form(let form):
            drawForm(form, tasks: tasks, into: &screen)
        }
    }

    /// The first key of each answer, as the hint names them (`o`/`n` in French).
    func answerKeys(_ answers: BoardScreen.Answers) -> (yes: String, no: String) {
        func first(_ keys: Set<Character>, _ word: L10nKey) -> String {
            let initial = localizer.string(word).lowercased().first
            let pick = initial.flatMap { keys.contains($0) ? $0 : nil } ?? keys.filter { $0.isASCII && $0.isLowercase }.min()
            return pick.map(String.init) ?? ""
        }
        return (first(answers.yes, .boardYes), first(answers.no, .boardNo))
    }

    /// A value in the conflict menu: `Title: 'Buy milk'  (shown)`.
    private func conflictLine(_ choice: ConflictChoice) -> String {
        let value: String
        switch (choice.field, choice.value) {
        case ("due", .string(let text)): value = CivilDate(iso: text).map(deadlineText) ?? TextSafety.escaped(text)
        case ("due", _): value = localizer.string(.showNoDue)
        case ("state", .string(let text)): value = TaskState(rawValue: text).map(name) ?? TextSafety.escaped(text)
        case (_, .string(let text)):
            let line = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
            value = localizer.quoted(TextSafety.escaped(line) + (line.count < text.count ? "…" : ""))
        default: value = ""
        }
        let line = localizer.string(.boardConflictValue, .text(fieldLabel(choice.field)), .text(value))
        return choice.shown ? localizer.string(.boardConflictShown, .text(line)) : line
    }

    private func deadlineText(_ date: CivilDate) -> String {
        DeadlineFormatter(locale: formatLocale, localizer: localizer).string(date)
    }

    func name(_ state: TaskState) -> String {
        switch state {
        case .todo: return localizer.string(.columnTodo)
        case .doing: return localizer.string(.columnDoing)
        case .done: return localizer.string(.columnDone)
        }
    }

    private func header(_ index: Int, state: BoardScreen) -> String {
        localizer.plural(.listHeader, count: state.columns[index].count, .text(name(TaskState.allCases[index])))
    }

    /// What every column needs to draw its cards.
    private struct Cards {
        var tasks: [TaskID: BoardTask]
        var deadlines: DeadlineFormatter
        var reminders: Set<TaskID>
        /// The rows the cards may take.
        var body: Int
        /// Cards others changed since the reader last looked.
        var changed: Set<TaskID> = []
    }

    private func drawColumn(
        _ index: Int, state: BoardScreen, cards: Cards, into screen: inout Screen, x: Int, width: Int,
        header withHeader: Bool = true
    ) {
        if withHeader {
            // The column a dragged card is over stands out as the selected one does.
            let look: ScreenCell.Look = index == state.column || index == state.drag?.over ? [.bold, .reverse] : [.bold]
            screen.write(TerminalCells.truncate(header(index, state: state), toWidth: width), x: x, y: 0, look: look)
        }
        screen.write(String(repeating: "─", count: width), x: x, y: 1, look: [.dim], limit: width)
        // Only the cards on screen are formatted: a key costs the same on a
        // board of ten cards or ten thousand.
        let ids = state.columns[index].filter { cards.tasks[$0] != nil }
        if ids.isEmpty {
            screen.write(localizer.string(.listEmptyColumn), x: x, y: 2, look: [.dim], limit: width)
            return
        }
        let (first, rows) = window(ids, selected: index == state.column ? state.row : 0, cards: cards)
        var y = 2
        if first > 0 {
            screen.write(localizer.plural(.boardMoreAbove, count: first), x: x + 1, y: y, look: [.dim], limit: width - 1)
            y += 1
        }
        var position = first
        while position < ids.count, let task = cards.tasks[ids[position]] {
            let lines = cardLines(task, width: width, cards: cards)
            guard y + lines.count <= 2 + rows else { break }
            let selected = index == state.column && position == state.row
            for (number, (text, look)) in lines.enumerated() {
                let prefix = number == 0 ? (selected ? "▌" : " ") : " "
                let line = prefix + TerminalCells.truncate(text, toWidth: width - 1)
                screen.write(line, x: x, y: y, look: selected ? look.union(.reverse) : look, limit: width)
                if selected { screen.paint(x: x, y: y, count: width, look: .reverse) }
                y += 1
            }
            position += 1
        }
        if position < ids.count {
            screen.write(
                localizer.plural(.boardMoreBelow, count: ids.count - position), x: x + 1, y: 2 + cards.body - 1, look: [.dim],
                limit: width - 1)
        }
    }

    private func height(_ task: BoardTask) -> Int { Self.cardHeight(task) }

    /// The lines a card takes: its title, and one each for its deadline,
    /// assignees, conflicts and restoration (the driver finds a click with it).
    public static func cardHeight(_ task: BoardTask) -> Int {
        1 + (task.due == nil ? 0 : 1) + (task.assignees.isEmpty ? 0 : 1) + (task.conflicts.isEmpty ? 0 : 1)
            + (task.restored ? 1 : 0) + (task.labels.isEmpty && task.progress.total == 0 ? 0 : 1)
    }

    /// The first card shown and the rows the cards get, so that the selected
    /// card is in view and a line is left to say how many are above and below.
    private func window(_ ids: [TaskID], selected: Int, cards: Cards) -> (first: Int, rows: Int) {
        let heights = ids.map { cards.tasks[$0].map(height) ?? 1 }
        if heights.reduce(0, +) <= cards.body { return (0, cards.body) }
        func first(fitting rows: Int) -> Int {
            var used = 0
            var first = 0
            for card in (0...min(selected, ids.count - 1)).reversed() {
                used += heights[card]
                if used > rows { break }
                first = card
            }
            return first
        }
        let start = first(fitting: cards.body - 1)
        // A line for "↑ N more" too, when cards are hidden above.
        return start == 0 ? (0, cards.body - 1) : (first(fitting: cards.body - 2), cards.body - 1)
    }

    /// A card's lines: its title, then its deadline and marks, one line each.
    private func cardLines(_ task: BoardTask, width: Int, cards: Cards) -> [(String, ScreenCell.Look)] {
        // A card others changed since the reader last looked (`pm news`) is marked.
        let marks = cardMarks?(task) ?? (priority: "", line: "", word: "")
        let title =
            marks.priority.isEmpty ? TextSafety.escaped(task.title) : marks.priority + " " + TextSafety.escaped(task.title)
        var lines =
            cards.changed.contains(task.id)
            ? [("• " + title, ScreenCell.Look.bold)]
            : [(title, ScreenCell.Look())]
        if let deadline = task.deadline {
            let overdue = task.isOverdue(today: today, now: now)
            let (due, time) = deadline.shown(in: zone)
            // At 80 columns a column has 25 cells: a compact date keeps "overdue" whole, as `pm list` does.
            var label = cards.deadlines.label(due, time: time, overdue: overdue, fitting: width - 3, today: today)
            var look: ScreenCell.Look = overdue ? [.red] : [.dim]
            if !overdue, cards.reminders.contains(task.id) {
                label = localizer.string(.cardDueToday)
                look = [.bold]
            }
            lines.append(("  " + label, look))
        }
        if !task.assignees.isEmpty {
            lines.append(("  " + task.assignees.map { "@" + TextSafety.escaped($0) }.joined(separator: " "), [.dim]))
        }
        // Its recurrence, checklist progress and labels (``CardMarks``): a line when it has any.
        if !marks.line.isEmpty {
            lines.append(("  " + marks.line, [.dim]))
        }
        if !task.conflicts.isEmpty {
            let fields = localizer.list(task.conflicts.keys.sorted().map(fieldLabel))
            lines.append(("  " + localizer.string(.listConflict, .text(localizer.afterColon(fields))), [.red]))
        }
        if task.restored { lines.append(("  " + localizer.string(.listRestored), [.red])) }
        return lines
    }

    func fieldLabel(_ field: String) -> String {
        switch field {
        case "title": return localizer.string(.showTitle)
        case "body": return localizer.string(.showBody)
        case "due": return localizer.string(.showDue)
        case "state": return localizer.string(.showState)
        default: return TextSafety.escaped(field)
        }
    }

    /// The footer's entries: keys and what they do, from the key table;
    /// an action that is unavailable now is dimmed.
    func hints(_ state: BoardScreen) -> [Hint] {
        /// An action's keys for the footer: the arrows for selecting, else its letter.
        func keys(_ actions: [BoardAction], letters: Bool = true) -> String {
            actions.compactMap { action -> String? in
                let bound = KeyMap.bindings.first { $0.action == action }?.keys ?? []
                let letter = bound.first {
                    if case .character(let c) = $0 { return c.isLetter || c == "?" } else { return false }
                }
                return (letters ? letter ?? bound.first : bound.first).map(keyName)
            }.joined()
        }
        let card = state.selected != nil
        // The conflict key only on a card in conflict, where it is the thing to do.
        let conflicts: [Hint] =
            state.selectedHasConflicts ? [(keys([.conflicts]), localizer.string(.boardKeyConflicts), true)] : []
        return conflicts + [
            (keys([.selectLeft, .selectDown, .selectUp, .selectRight], letters: false), localizer.string(.boardKeySelect), true),
            (keys([.moveLeft, .moveRight], letters: false), localizer.string(.boardKeyMove), card),
            (keys([.moveMenu]), localizer.string(.boardKeyMenu), card),
            (keys([.add]), localizer.string(.boardKeyAdd), true),
            (keys([.edit]), localizer.string(.boardKeyEdit), card),
            (keys([.delete]), localizer.string(.boardKeyDelete), card),
            (keys([.undo]), localizer.string(.boardKeyUndo), state.canUndo && !state.undoBlocked),
            (keys([.redo]), localizer.string(.boardKeyRedo), state.canRedo),
            // "Mine" and "take" are in help (?): two lines at 80 columns hold the rest in every language.
            (keys([.filter]), localizer.string(.boardKeyFilter), true),
            (keys([.history]), localizer.string(.boardKeyHistory), true),
            (keys([.help]), localizer.string(.boardKeyHelp), true),
            (keys([.quit]), localizer.string(.boardKeyQuit), true),
        ]
    }

    typealias Hint = (keys: String, label: String, available: Bool)

    /// The footer: every hint, on a second line when one is not enough (help
    /// and quit last); only on a very narrow screen are the middle ones left out.
    func footerLines(_ state: BoardScreen, width: Int) -> [[Hint]] {
        var all = hints(state)
        func cells(_ hint: Hint) -> Int { TerminalCells.width(of: hint.keys + " " + hint.label) + 2 }
        func wrapped(_ hints: [Hint]) -> [[Hint]] {
            var lines: [[Hint]] = [[]]
            var used = 0
            for hint in hints {
                if used + cells(hint) > width + 2, !lines[lines.count - 1].isEmpty {
                    lines.append([])
                    used = 0
                }
                lines[lines.count - 1].append(hint)
                used += cells(hint)
            }
            return lines
        }
        var lines = wrapped(all)
        if lines.count > 2 {
            // The filter's key is the first to give way (help lists it).
            let filter = localizer.string(.boardKeyFilter)
            all.removeAll { $0.label == filter }
            lines = wrapped(all)
        }
        guard lines.count > 2 else { return lines }
        // Too narrow for two lines: as many as fit, then help and quit.
        let kept = Array(all.suffix(2))
        var room = width - kept.reduce(0) { $0 + cells($1) }
        var shown: [Hint] = []
        for hint in all.dropLast(2) where cells(hint) <= room {
            shown.append(hint)
            room -= cells(hint)
        }
        return [shown + kept]
    }

    private func drawFooter(_ lines: [[Hint]], into screen: inout Screen) {
        for (number, line) in lines.enumerated() {
            var x = 0
            let y = screen.height - lines.count + number
            for (keys, label, available) in line {
                let end = screen.write(keys, x: x, y: y, look: available ? [.bold] : [.dim])
                x = screen.write(" " + label, x: end, y: y, look: available ? [] : [.dim]) + 2
            }
        }
    }
}
