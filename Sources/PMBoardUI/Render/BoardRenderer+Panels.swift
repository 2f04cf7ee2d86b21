import PMCore
import PMICU
import PMLocalization

/// The panels over the board: the menus and questions, the form, history and help.
extension BoardRenderer {
    /// A box in the middle of the screen: a title, lines to choose from (the
    /// chosen one in reverse video), and the keys that work here.
    func drawBox(title: String, lines: [String], chosen: Int, hint: String, into screen: inout Screen) {
        let widest = ([title, hint] + lines).map { TerminalCells.width(of: $0) }.max() ?? 0
        let inner = min(screen.width - 4, widest + 2)
        let height = lines.count + 6
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
            let selected = index == chosen
            screen.write(
                (selected ? "▸ " : "  ") + text, x: left + 1, y: top + 3 + index, look: selected ? [.reverse, .bold] : [])
        }
        screen.write(TerminalCells.truncate(hint, toWidth: inner - 2), x: left + 2, y: top + height - 2, look: [.dim])
    }

    /// The form over the board: labelled fields, the body on several lines,
    /// the deadline checked as typed, and the real cursor at the caret (so
    /// input methods and screen readers follow it).
    func drawForm(_ form: TaskForm, tasks: [TaskID: BoardTask], into screen: inout Screen) {
        let inner = max(10, min(screen.width - 4, 70))
        // The board's last lines (where a refusal is said) stay in view:
        // the body and the checklist take what room the terminal has.
        let room = max(2, screen.height - 3 - 16)
        let bodyLines = min(4, max(1, room - 2))
        let listLines = min(6, max(1, room - bodyLines))
        let height = min(max(1, screen.height - 3), 16 + bodyLines + listLines)
        let left = max(0, (screen.width - inner - 2) / 2)
        let top = max(0, min((screen.height - height) / 2, screen.height - 3 - height))
        screen.write("┌" + String(repeating: "─", count: inner) + "┐", x: left, y: top)
        for row in 1..<(height - 1) { screen.write("│" + String(repeating: " ", count: inner) + "│", x: left, y: top + row) }
        screen.write("└" + String(repeating: "─", count: inner) + "┘", x: left, y: top + height - 1)
        let heading =
            form.task.map { id in localizer.string(.boardFormEditTitle, .text(TextSafety.escaped(tasks[id]?.title ?? ""))) }
            ?? localizer.string(.boardFormAddTitle)
        screen.write(TerminalCells.truncate(heading, toWidth: inner - 2), x: left + 2, y: top + 1, look: [.bold])
        let labels = [
            localizer.string(.boardFormTitle), localizer.string(.boardFormBody), localizer.string(.boardFormDue),
            localizer.string(.boardFormAssignees), localizer.string(.showPriority), localizer.string(.showLabels),
            localizer.string(.boardFormChecklist),
        ]
        let labelWidth = labels.map { TerminalCells.width(of: $0) }.max() ?? 0
        let fieldX = left + 2 + labelWidth + 2
        let fieldWidth = max(4, left + inner - fieldX)
        let rows: [TaskForm.Field: Int] = [
            .title: top + 3, .body: top + 5, .due: top + 6 + bodyLines, .assignees: top + 8 + bodyLines,
            .priority: top + 9 + bodyLines, .labels: top + 10 + bodyLines, .checklist: top + 12 + bodyLines,
        ]
        for field in TaskForm.Field.allCases {
            let y = rows[field] ?? top
            guard y < top + height - 2 else { continue }
            screen.write(labels[field.rawValue], x: left + 2, y: y, look: form.focus == field ? [.bold] : [.dim])
            let lines = field == .body ? bodyLines : listLines
            drawField(field, of: form, x: fieldX, y: y, width: fieldWidth, bodyLines: lines, into: &screen)
        }
        // The deadline, checked as typed.
        let dueY = (rows[.due] ?? top) + 1
        if form.due.contains(where: { !$0.isWhitespace }), let checkDue {
            let (valid, text) = checkDue(form.due)
            screen.write(TerminalCells.truncate(text, toWidth: fieldWidth), x: fieldX, y: dueY, look: valid ? [.dim] : [.red])
        }
        let note = formNote(form)
        screen.write(TerminalCells.truncate(note.0, toWidth: inner - 2), x: left + 2, y: top + height - 2, look: note.1)
    }

    /// One field of the form at (`x`, `y`), `width` cells wide: the body on
    /// `bodyLines` lines, a long line scrolled so that the caret stays in
    /// view; the focused field in reverse video, the cursor at its caret.
    private func drawField(
        _ field: TaskForm.Field, of form: TaskForm, x fieldX: Int, y: Int, width fieldWidth: Int, bodyLines: Int,
        into screen: inout Screen
    ) {
        let focused = form.focus == field
        let text = form.texts[field.rawValue]
        let multiline = field.isMultiline
        let lines = multiline ? text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) : [text]
        // The caret's line and column in the field.
        let (caretLine, caretColumn) = focused ? Self.caret(form.caret, in: lines, multiline: multiline) : (0, 0)
        let firstLine = max(0, caretLine - (multiline ? bodyLines - 1 : 0))
        for (offset, line) in lines.dropFirst(firstLine).prefix(multiline ? bodyLines : 1).enumerated() {
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

    /// The line and column of the caret, `caret` characters into a field
    /// (`multiline`: its lines joined by line breaks).
    private static func caret(_ caret: Int, in lines: [String], multiline: Bool) -> (line: Int, column: Int) {
        guard multiline else { return (0, caret) }
        var remaining = caret
        for (number, line) in lines.enumerated() {
            if remaining <= line.count { return (number, remaining) }
            remaining -= line.count + 1
        }
        return (0, caret)
    }

    /// The line at the form's foot: the discard question, a change made
    /// underneath, or the keys that work in the focused field.
    private func formNote(_ form: TaskForm) -> (String, ScreenCell.Look) {
        if form.confirmingDiscard {
            return (localizer.string(.boardFormDiscard), [.bold, .red])
        } else if form.changedUnderneath {
            return (localizer.string(.boardFormChangedUnderneath), [.red])
        } else {
            return (
                localizer.string(
                    form.focus.isMultiline
                        ? (form.focus == .checklist ? .boardFormChecklistHint : .boardFormBodyHint) : .boardFormHint), [.dim]
            )
        }
    }

    /// The history panel: newest first, in the reader's language.
    func drawHistory(_ lines: [BoardHistoryLine], task: BoardTask?, into screen: inout Screen) {
        for row in 0..<screen.height { screen.write(String(repeating: " ", count: screen.width), x: 0, y: row) }
        let title =
            task.map { localizer.string(.boardHistoryTask, .text(TextSafety.escaped($0.title))) }
            ?? localizer.string(.boardHistoryTitle)
        screen.write(TerminalCells.truncate(title, toWidth: screen.width - 2), x: 1, y: 0, look: [.bold])
        let room = screen.width - 2
        // A card's own panel: its checklist and comments first, then its history.
        let details = task.flatMap { cardDetails?($0) } ?? []
        for (index, line) in details.enumerated() where index + 2 < screen.height - 1 {
            screen.write(TerminalCells.truncate(line, toWidth: room), x: 1, y: index + 2)
        }
        let first = details.isEmpty ? 2 : details.count + 3
        if lines.isEmpty, first < screen.height - 1 {
            screen.write(localizer.string(.historyEmpty), x: 1, y: first, look: [.dim])
        }
        for (index, line) in lines.enumerated() where index + first < screen.height - 1 {
            // The date shorter, then left out, before the change itself is cut.
            let forms = [
                localizer.string(.historyLine, .text(line.when), .text(line.who), .text(line.what)),
                localizer.string(.historyLine, .text(line.shortWhen), .text(line.who), .text(line.what)),
                line.who + "  " + line.what,
            ]
            let text = forms.first { TerminalCells.width(of: $0) <= room } ?? forms[2]
            screen.write(TerminalCells.truncate(text, toWidth: room), x: 1, y: index + first)
        }
        screen.write(
            TerminalCells.truncate(localizer.string(.boardHistoryHint), toWidth: screen.width), x: 0, y: screen.height - 1,
            look: [.dim])
    }

    /// Help: the keys of the question or menu it was opened over first, then the board's.
    func drawHelp(_ state: BoardScreen, into screen: inout Screen) {
        for row in 0..<screen.height { screen.write(String(repeating: " ", count: screen.width), x: 0, y: row) }
        screen.write(localizer.string(.boardHelpTitle), x: 1, y: 0, look: [.bold])
        var rows: [(keys: String, label: String)] = []
        let answers = answerKeys(state.answers)
        switch state.underHelp {
        case .confirmDelete:
            rows = [
                ("", localizer.string(.boardHelpQuestion)),
                ("↑ ↓ ← → Tab", localizer.string(.boardHelpChoose)),
                (keyName(.enter), localizer.string(.boardHelpAnswer)),
                (answers.yes, localizer.string(.boardHelpYes)), (answers.no, localizer.string(.boardHelpNo)),
                (keyName(.escape) + " q", localizer.string(.boardHelpCancel)),
            ]
        case .moveMenu, .conflicts:
            rows = [
                ("", localizer.string(.boardHelpMenu)),
                ("↑ ↓ ← → Tab", localizer.string(.boardHelpChoose)),
                (keyName(.enter), localizer.string(.boardHelpPick)),
                (keyName(.escape) + " q", localizer.string(.boardHelpCancel)),
            ]
        default: break
        }
        // Over a question or menu: its keys alone, which is what was asked.
        if rows.isEmpty { rows = boardHelpRows() }
        let keyWidth = min(screen.width / 2, rows.map { TerminalCells.width(of: $0.keys) }.max() ?? 0)
        for (index, (keys, label)) in rows.enumerated() where index + 2 < screen.height {
            if keys.isEmpty {
                screen.write(TerminalCells.truncate(label, toWidth: screen.width - 2), x: 1, y: index + 2, look: [.bold])
                continue
            }
            screen.write(TerminalCells.truncate(keys, toWidth: keyWidth), x: 1, y: index + 2, look: [.bold])
            screen.write(
                TerminalCells.truncate(label, toWidth: max(1, screen.width - keyWidth - 4)), x: keyWidth + 3, y: index + 2)
        }
    }

    /// The board's keys, one row per thing to do (the four arrows on one row).
    private func boardHelpRows() -> [(keys: String, label: String)] {
        let labels: [BoardAction: L10nKey] = [
            .selectLeft: .boardKeySelect, .selectRight: .boardKeySelect, .selectUp: .boardKeySelect,
            .selectDown: .boardKeySelect, .moveLeft: .boardKeyMove, .moveRight: .boardKeyMove, .moveMenu: .boardKeyMenu,
            .add: .boardKeyAdd, .edit: .boardKeyEdit, .delete: .boardKeyDelete, .undo: .boardKeyUndo, .redo: .boardKeyRedo,
            .history: .boardKeyHistory, .help: .boardKeyHelp, .quit: .boardKeyQuit, .conflicts: .boardKeyConflictsHelp,
            .filter: .boardKeyFilter, .mine: .boardKeyMine, .take: .boardKeyTake,
        ]
        let columns: [BoardAction: TaskState] = [.column1: .todo, .column2: .doing, .column3: .done]
        var rows: [(keys: String, label: String)] = []
        for binding in KeyMap.bindings {
            let label =
                columns[binding.action].map { localizer.string(.boardKeyColumnNamed, .text(name($0))) }
                ?? labels[binding.action].map { localizer.string($0) } ?? ""
            var keys = binding.keys.map(keyName).joined(separator: " ")
            // A column's digit, and the key that types it on a French AZERTY keyboard (`1 &`).
            if columns[binding.action] != nil, case .character(let digit)? = binding.keys.first,
                let azerty = KeyMap.azertyKey(of: digit)
            {
                keys += " " + String(azerty)
            }
            if let last = rows.indices.last, rows[last].label == label {
                rows[last].keys += " " + keys
            } else {
                rows.append((keys, label))
            }
        }
        return rows
    }
}
