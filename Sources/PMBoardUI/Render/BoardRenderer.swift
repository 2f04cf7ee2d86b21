import PMCore
import PMICU
import PMLocalization

/// Draws the board from its state, pure: the same state, tasks, size and
/// language always give the same screen (DESIGN.md §11).
public struct BoardRenderer {
    public var localizer: Localizer
    public var formatLocale: String
    public var today: CivilDate

    /// Checks a typed deadline as it is typed: what date it means (in the
    /// reader's format), or why it is not one. Nil: not checked.
    public var checkDue: (@Sendable (String) -> (valid: Bool, text: String))?

    /// The narrowest a column may be before the board shows one at a time.
    public static let minimumColumnWidth = 22

    public init(localizer: Localizer, formatLocale: String, today: CivilDate) {
        self.localizer = localizer
        self.formatLocale = formatLocale
        self.today = today
    }

    /// The screen for `state`, with `tasks` by id and `status` (the sync
    /// state, from the caller) on the status line.
    public func render(
        _ state: BoardScreen, tasks: [TaskID: BoardTask], width: Int, height: Int, status: String = "", history: [String] = []
    ) -> Screen {
        var screen = Screen(width: width, height: height)
        let deadlines = DeadlineFormatter(locale: formatLocale, localizer: localizer)
        let body = max(1, screen.height - 4)
        let gap = 2
        let sideBySide = (screen.width - 2 * gap) / 3 >= Self.minimumColumnWidth
        if sideBySide {
            let columnWidth = (screen.width - 2 * gap) / 3
            for index in 0..<3 {
                drawColumn(
                    index, state: state, tasks: tasks, into: &screen, x: index * (columnWidth + gap), width: columnWidth,
                    body: body, deadlines: deadlines, header: true)
            }
        } else {
            // Narrow: one column at a time, with tabs naming the others.
            var x = 0
            for index in 0..<3 {
                let label = header(index, state: state)
                let look: ScreenCell.Look = index == state.column ? [.bold, .reverse] : [.dim]
                x = screen.write(label, x: x, y: 0, look: look) + 1
            }
            drawColumn(
                state.column, state: state, tasks: tasks, into: &screen, x: 0, width: screen.width, body: body,
                deadlines: deadlines, header: false)
        }
        drawStatus(state, status: status, into: &screen)
        drawFooter(state, into: &screen)
        switch state.mode {
        case .board: break
        case .moveMenu(let task, let choices, let chosen):
            let title = localizer.string(.boardMoveTitle, .text(TextSafety.escaped(tasks[task]?.title ?? "")))
            let lines = choices.map { "\(TaskState.allCases.firstIndex(of: $0).map { $0 + 1 } ?? 0)  " + name($0) }
            drawBox(title: title, lines: lines, chosen: chosen, into: &screen)
        case .confirmDelete(let task, let yes):
            let title = localizer.string(.boardConfirmDelete, .text(TextSafety.escaped(tasks[task]?.title ?? "")))
            drawBox(
                title: title, lines: [localizer.string(.boardNo), localizer.string(.boardYes)], chosen: yes ? 1 : 0,
                into: &screen)
        case .help:
            drawHelp(into: &screen)
        case .history(let task):
            drawHistory(history, task: task.flatMap { tasks[$0] }, into: &screen)
        case .form(let form):
            drawForm(form, tasks: tasks, into: &screen)
        }
        return screen
    }

    private func name(_ state: TaskState) -> String {
        switch state {
        case .todo: return localizer.string(.columnTodo)
        case .doing: return localizer.string(.columnDoing)
        case .done: return localizer.string(.columnDone)
        }
    }

    private func header(_ index: Int, state: BoardScreen) -> String {
        localizer.plural(.listHeader, count: state.columns[index].count, .text(name(TaskState.allCases[index])))
    }

    private func drawColumn(
        _ index: Int, state: BoardScreen, tasks: [TaskID: BoardTask], into screen: inout Screen, x: Int, width: Int,
        body: Int, deadlines: DeadlineFormatter, header withHeader: Bool
    ) {
        if withHeader {
            let look: ScreenCell.Look = index == state.column ? [.bold, .reverse] : [.bold]
            screen.write(TerminalCells.truncate(header(index, state: state), toWidth: width), x: x, y: 0, look: look)
        }
        screen.write(String(repeating: "─", count: width), x: x, y: 1, look: [.dim], limit: width)
        // Each card: its title, then its deadline and marks, one line each.
        // Only the cards on screen are formatted: a key costs the same on a
        // board of ten cards or ten thousand.
        let ids = state.columns[index].filter { tasks[$0] != nil }
        if ids.isEmpty {
            screen.write(localizer.string(.listEmptyColumn), x: x, y: 2, look: [.dim], limit: width)
            return
        }
        func height(_ task: BoardTask) -> Int {
            1 + (task.due == nil ? 0 : 1) + (task.conflicts.isEmpty ? 0 : 1) + (task.restored ? 1 : 0)
        }
        // Scroll so the selected card is in view.
        var first = 0
        if index == state.column {
            var used = 0
            for card in (0...min(state.row, ids.count - 1)).reversed() {
                used += tasks[ids[card]].map(height) ?? 1
                if used > body { break }
                first = card
            }
        }
        var y = 2
        for position in first..<ids.count {
            guard y + 1 <= 2 + body, let task = tasks[ids[position]] else { break }
            var lines = [(TextSafety.escaped(task.title), ScreenCell.Look())]
            if let due = task.due {
                let overdue = task.isOverdue(today: today)
                lines.append(("  " + deadlines.label(due, overdue: overdue), overdue ? [.red] : [.dim]))
            }
            if !task.conflicts.isEmpty {
                let fields = task.conflicts.keys.sorted().map(fieldLabel).joined(separator: ", ")
                lines.append(("  " + localizer.string(.listConflict, .text(fields)), [.red]))
            }
            if task.restored { lines.append(("  " + localizer.string(.listRestored), [.red])) }
            let selected = index == state.column && position == state.row
            for (number, (text, look)) in lines.enumerated() where y < 2 + body {
                let prefix = number == 0 ? (selected ? "▌" : " ") : " "
                let line = prefix + TerminalCells.truncate(text, toWidth: width - 1)
                screen.write(line, x: x, y: y, look: selected ? look.union(.reverse) : look, limit: width)
                if selected { screen.paint(x: x, y: y, count: width, look: .reverse) }
                y += 1
            }
        }
    }

    private func fieldLabel(_ field: String) -> String {
        switch field {
        case "title": return localizer.string(.showTitle)
        case "body": return localizer.string(.showBody)
        case "due": return localizer.string(.showDue)
        case "state": return localizer.string(.showState)
        default: return TextSafety.escaped(field)
        }
    }

    private func drawStatus(_ state: BoardScreen, status: String, into screen: inout Screen) {
        let y = screen.height - 2
        if let notice = state.notice {
            let key: L10nKey
            switch notice {
            case .nothingSelected: key = .boardNoticeNothingSelected
            case .nothingToUndo: key = .boardNoticeNothingToUndo
            case .nothingToRedo: key = .boardNoticeNothingToRedo
            case .undoBlocked: key = .boardNoticeUndoBlocked
            case .noColumnThatWay: key = .boardNoticeNoColumnThatWay
            }
            screen.write(TerminalCells.truncate(localizer.string(key), toWidth: screen.width), x: 0, y: y, look: [.red])
        } else if !status.isEmpty {
            screen.write(TerminalCells.truncate(status, toWidth: screen.width), x: 0, y: y, look: [.dim])
        }
    }

    /// The keys' names as a person reads them.
    func keyName(_ key: Key) -> String {
        switch key {
        case .character(let character): return String(character)
        case .left: return "←"
        case .right: return "→"
        case .up: return "↑"
        case .down: return "↓"
        case .shiftLeft: return "⇧←"
        case .shiftRight: return "⇧→"
        case .enter: return localizer.string(.boardKeyNameEnter)
        case .insert: return localizer.string(.boardKeyNameInsert)
        case .delete: return localizer.string(.boardKeyNameDelete)
        case .escape: return localizer.string(.boardKeyNameEscape)
        case .control(let letter): return localizer.string(.boardKeyNameCtrl, .text(String(letter).uppercased()))
        default: return ""
        }
    }

    /// The footer's entries: keys and what they do, from the key table;
    /// an action that is unavailable now is dimmed.
    func hints(_ state: BoardScreen) -> [(keys: String, label: String, available: Bool)] {
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
        return [
            (keys([.selectLeft, .selectDown, .selectUp, .selectRight], letters: false), localizer.string(.boardKeySelect), true),
            (keys([.moveLeft, .moveRight], letters: false), localizer.string(.boardKeyMove), card),
            (keys([.moveMenu]), localizer.string(.boardKeyMenu), card),
            (keys([.add]), localizer.string(.boardKeyAdd), true),
            (keys([.edit]), localizer.string(.boardKeyEdit), card),
            (keys([.delete]), localizer.string(.boardKeyDelete), card),
            (keys([.undo]), localizer.string(.boardKeyUndo), state.canUndo && !state.undoBlocked),
            (keys([.redo]), localizer.string(.boardKeyRedo), state.canRedo),
            (keys([.history]), localizer.string(.boardKeyHistory), true),
            (keys([.help]), localizer.string(.boardKeyHelp), true),
            (keys([.quit]), localizer.string(.boardKeyQuit), true),
        ]
    }

    /// The footer: as many hints as fit, but help and quit always (the last two).
    private func drawFooter(_ state: BoardScreen, into screen: inout Screen) {
        let all = hints(state)
        let kept = all.suffix(2)
        func width(_ hint: (keys: String, label: String, available: Bool)) -> Int {
            TerminalCells.width(of: hint.keys + " " + hint.label) + 2
        }
        var room = screen.width - kept.reduce(0) { $0 + width($1) }
        var shown: [(keys: String, label: String, available: Bool)] = []
        for hint in all.dropLast(2) {
            guard width(hint) <= room else { break }
            shown.append(hint)
            room -= width(hint)
        }
        var x = 0
        let y = screen.height - 1
        for (keys, label, available) in shown + kept {
            let end = screen.write(keys, x: x, y: y, look: available ? [.bold] : [.dim])
            x = screen.write(" " + label, x: end, y: y, look: available ? [] : [.dim]) + 2
        }
    }

    private func drawBox(title: String, lines: [String], chosen: Int, into screen: inout Screen) {
        let inner = min(
            screen.width - 4, max(TerminalCells.width(of: title), lines.map { TerminalCells.width(of: $0) }.max() ?? 0) + 2)
        let height = lines.count + 4
        let left = max(0, (screen.width - inner - 2) / 2)
        let top = max(0, (screen.height - height) / 2)
        screen.write("┌" + String(repeating: "─", count: inner) + "┐", x: left, y: top)
        for row in 1..<(height - 1) {
            screen.write("│" + String(repeating: " ", count: inner) + "│", x: left, y: top + row)
        }
        screen.write("└" + String(repeating: "─", count: inner) + "┘", x: left, y: top + height - 1)
        screen.write(TerminalCells.truncate(title, toWidth: inner - 2), x: left + 2, y: top + 1, look: [.bold])
        for (index, line) in lines.enumerated() {
            let text = TerminalCells.truncate(line, toWidth: inner - 2)
            screen.write(text, x: left + 2, y: top + 3 + index, look: index == chosen ? [.reverse] : [])
        }
    }

    /// The form over the board: labelled fields, the body on several lines,
    /// the deadline checked as typed, and the real cursor at the caret (so
    /// input methods and screen readers follow it).
    private func drawForm(_ form: TaskForm, tasks: [TaskID: BoardTask], into screen: inout Screen) {
        let inner = max(10, min(screen.width - 4, 70))
        let bodyLines = 4
        let height = min(screen.height, 11 + bodyLines)
        let left = max(0, (screen.width - inner - 2) / 2)
        let top = max(0, (screen.height - height) / 2)
        screen.write("┌" + String(repeating: "─", count: inner) + "┐", x: left, y: top)
        for row in 1..<(height - 1) { screen.write("│" + String(repeating: " ", count: inner) + "│", x: left, y: top + row) }
        screen.write("└" + String(repeating: "─", count: inner) + "┘", x: left, y: top + height - 1)
        let heading =
            form.task.map { id in localizer.string(.boardFormEditTitle, .text(TextSafety.escaped(tasks[id]?.title ?? ""))) }
            ?? localizer.string(.boardFormAddTitle)
        screen.write(TerminalCells.truncate(heading, toWidth: inner - 2), x: left + 2, y: top + 1, look: [.bold])
        let labels = [localizer.string(.boardFormTitle), localizer.string(.boardFormBody), localizer.string(.boardFormDue)]
        let labelWidth = labels.map { TerminalCells.width(of: $0) }.max() ?? 0
        let fieldX = left + 2 + labelWidth + 2
        let fieldWidth = max(4, left + inner - fieldX)
        let rows: [TaskForm.Field: Int] = [.title: top + 3, .body: top + 5, .due: top + 6 + bodyLines]
        for field in TaskForm.Field.allCases {
            let y = rows[field] ?? top
            let focused = form.focus == field
            screen.write(labels[field.rawValue], x: left + 2, y: y, look: focused ? [.bold] : [.dim])
            let text = [form.title, form.body, form.due][field.rawValue]
            let lines = field == .body ? text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) : [text]
            // The caret's line and column in the field.
            var caretLine = 0
            var caretColumn = focused ? form.caret : 0
            if field == .body, focused {
                var remaining = form.caret
                for (number, line) in lines.enumerated() {
                    if remaining <= line.count {
                        caretLine = number
                        caretColumn = remaining
                        break
                    }
                    remaining -= line.count + 1
                }
            }
            let firstLine = max(0, caretLine - (field == .body ? bodyLines - 1 : 0))
            for (offset, line) in lines.dropFirst(firstLine).prefix(field == .body ? bodyLines : 1).enumerated() {
                let shown = TextSafety.escaped(line)
                // Scroll a long line so the caret stays in view.
                let before = String(shown.prefix(focused && offset + firstLine == caretLine ? caretColumn : 0))
                var start = 0
                while TerminalCells.width(of: String(Array(before).dropFirst(start))) >= fieldWidth { start += 1 }
                let visible = String(Array(shown).dropFirst(start))
                screen.write(visible, x: fieldX, y: y + offset, look: focused ? [.reverse] : [], limit: fieldWidth)
                if focused { screen.paint(x: fieldX, y: y + offset, count: fieldWidth, look: .reverse) }
                if focused, offset + firstLine == caretLine {
                    screen.cursor = (fieldX + TerminalCells.width(of: String(Array(before).dropFirst(start))), y + offset)
                }
            }
            if lines.isEmpty || (focused && text.isEmpty) {
                if focused {
                    screen.paint(x: fieldX, y: y, count: fieldWidth, look: .reverse)
                    screen.cursor = (fieldX, y)
                }
            }
        }
        // The deadline, checked as typed.
        let dueY = (rows[.due] ?? top) + 1
        if form.due.contains(where: { !$0.isWhitespace }), let checkDue {
            let (valid, text) = checkDue(form.due)
            screen.write(TerminalCells.truncate(text, toWidth: fieldWidth), x: fieldX, y: dueY, look: valid ? [.dim] : [.red])
        }
        let note: (String, ScreenCell.Look)
        if form.confirmingDiscard {
            note = (localizer.string(.boardFormDiscard), [.bold, .red])
        } else if form.changedUnderneath {
            note = (localizer.string(.boardFormChangedUnderneath), [.red])
        } else {
            note = (localizer.string(form.focus == .body ? .boardFormBodyHint : .boardFormHint), [.dim])
        }
        screen.write(TerminalCells.truncate(note.0, toWidth: inner - 2), x: left + 2, y: top + height - 2, look: note.1)
    }

    /// The history panel: newest first, in the reader's language.
    private func drawHistory(_ lines: [String], task: BoardTask?, into screen: inout Screen) {
        for row in 0..<screen.height { screen.write(String(repeating: " ", count: screen.width), x: 0, y: row) }
        let title =
            task.map { localizer.string(.boardHistoryTask, .text(TextSafety.escaped($0.title))) }
            ?? localizer.string(.boardHistoryTitle)
        screen.write(TerminalCells.truncate(title, toWidth: screen.width - 2), x: 1, y: 0, look: [.bold])
        if lines.isEmpty { screen.write(localizer.string(.historyEmpty), x: 1, y: 2, look: [.dim]) }
        for (index, line) in lines.enumerated() where index + 2 < screen.height - 1 {
            screen.write(TerminalCells.truncate(line, toWidth: screen.width - 2), x: 1, y: index + 2)
        }
        screen.write(
            TerminalCells.truncate(localizer.string(.boardHistoryHint), toWidth: screen.width), x: 0, y: screen.height - 1,
            look: [.dim])
    }

    private func drawHelp(into screen: inout Screen) {
        for row in 0..<screen.height { screen.write(String(repeating: " ", count: screen.width), x: 0, y: row) }
        screen.write(localizer.string(.boardHelpTitle), x: 1, y: 0, look: [.bold])
        let labels: [BoardAction: L10nKey] = [
            .selectLeft: .boardKeySelect, .selectRight: .boardKeySelect, .selectUp: .boardKeySelect,
            .selectDown: .boardKeySelect, .moveLeft: .boardKeyMove, .moveRight: .boardKeyMove, .moveMenu: .boardKeyMenu,
            .add: .boardKeyAdd, .edit: .boardKeyEdit, .delete: .boardKeyDelete, .undo: .boardKeyUndo, .redo: .boardKeyRedo,
            .history: .boardKeyHistory, .help: .boardKeyHelp, .quit: .boardKeyQuit, .column1: .boardKeyColumn,
            .column2: .boardKeyColumn, .column3: .boardKeyColumn,
        ]
        let rows = KeyMap.bindings.map { binding in
            (binding.keys.map(keyName).joined(separator: " "), labels[binding.action].map { localizer.string($0) } ?? "")
        }
        let keyWidth = min(screen.width / 2, rows.map { TerminalCells.width(of: $0.0) }.max() ?? 0)
        for (index, (keys, label)) in rows.enumerated() where index + 2 < screen.height {
            screen.write(TerminalCells.truncate(keys, toWidth: keyWidth), x: 1, y: index + 2, look: [.bold])
            screen.write(label, x: keyWidth + 3, y: index + 2)
        }
    }
}
