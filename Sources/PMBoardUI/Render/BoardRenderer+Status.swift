import PMCore
import PMICU
import PMLocalization

/// The status line, above the footer.
extension BoardRenderer {
    /// The status line: a key's notice, a drag in progress, the last
    /// action's message or the last sync on the left; the link to the remote
    /// always on the right, offline in reverse video so it is seen at a
    /// glance (and without colour).
    func drawStatus(
        _ state: BoardScreen, status: BoardStatus, tasks: [TaskID: BoardTask], into screen: inout Screen, y: Int
    ) {
        var right = screen.width
        // The last action's message is what the person is reading: when it
        // does not fit beside the link's words, the link keeps its symbol
        // (○ ● ↻) and the message the room; offline is always said whole.
        var shown = status.indicator
        let messageShows = state.notice == nil && state.drag == nil && state.mode != .filter && !status.message.isEmpty
        if messageShows, status.link != .offline, let symbol = shown.first,
            TerminalCells.width(of: status.message) > screen.width - TerminalCells.width(of: shown) - 2
        {
            shown = String(symbol)
        }
        if !shown.isEmpty {
            let indicator = TerminalCells.truncate(shown, toWidth: max(1, screen.width / 2))
            right = screen.width - TerminalCells.width(of: indicator)
            let look: ScreenCell.Look
            switch status.link {
            case .offline: look = [.bold, .reverse, .red]
            case .local: look = [.dim]
            case .online, .syncing: look = [.bold]
            }
            screen.write(indicator, x: right, y: y, look: look)
        }
        let room = max(0, right - 2)
        let left: (String, ScreenCell.Look)
        if let notice = state.notice {
            left = (localizer.string(Self.noticeKey(notice)), [.red])
        } else if let drag = state.drag, let task = tasks[drag.task] {
            let target = name(TaskState.allCases[drag.over])
            left = (localizer.string(.boardDragging, .text(TextSafety.escaped(task.title)), .text(target)), [.bold])
        } else if state.mode == .filter {
            left = (localizer.string(.boardFilterTyping, .text(TextSafety.escaped(state.filter.text))), [.bold])
        } else if !status.message.isEmpty {
            left = (status.message, [])
        } else if state.filter.isActive {
            // A filtered board says so, and how to see every card again.
            var parts: [String] = []
            if !state.filter.text.isEmpty {
                parts.append(localizer.string(.boardFilterText, .text(TextSafety.escaped(state.filter.text))))
            }
            if state.filter.mine { parts.append(localizer.string(.boardFilterMine)) }
            left = (localizer.string(.boardFiltered, .text(localizer.list(parts))), [.bold])
        } else {
            left = (status.summary(fitting: room), [.dim])
        }
        screen.write(TerminalCells.truncate(left.0, toWidth: room), x: 0, y: y, look: left.1, limit: room)
    }

    static func noticeKey(_ notice: BoardScreen.Notice) -> L10nKey {
        switch notice {
        case .nothingSelected: return .boardNoticeNothingSelected
        case .nothingToUndo: return .boardNoticeNothingToUndo
        case .nothingToRedo: return .boardNoticeNothingToRedo
        case .undoBlocked: return .boardNoticeUndoBlocked
        case .noColumnThatWay: return .boardNoticeNoColumnThatWay
        case .noConflict: return .boardNoticeNoConflict
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
}
