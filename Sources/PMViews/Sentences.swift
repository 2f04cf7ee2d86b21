import PMCore
import PMICU
import PMKit
import PMLocalization

/// What a change did, said once for every front end: `pm move` and the
/// board's status line both read "Moved 'X' from TODO to DOING." from here.
package struct Sentences {
    package var localizer: Localizer
    /// Dates in the reader's form (never coloured: a sentence is one line of text).
    package var style: TextStyle

    package init(localizer: Localizer, style: TextStyle) {
        self.localizer = localizer
        self.style = style
    }

    private func shown(_ text: String) -> MessageArgument { .text(TextSafety.escaped(text)) }
    private func column(_ state: TaskState) -> MessageArgument { .text(localizer.string(StateNames.key(state))) }

    package func added(_ task: BoardTask) -> String { localizer.string(.messageAdded, shown(task.title)) }

    /// A reminder: of a whole day's deadline, that it is today; of one with a
    /// time, its day and time (it comes an hour before, perhaps the day before).
    package func reminder(_ task: BoardTask) -> String {
        guard let deadline = task.deadline else { return localizer.string(.remindLine, shown(task.title), .text("")) }
        let when = MessageArgument.text(style.deadline(deadline, localizer: localizer))
        return localizer.string(deadline.time == nil ? .remindLine : .remindLineTime, shown(task.title), when)
    }

    /// A move, or that the task was already there; and the next occurrence
    /// a recurring task done made.
    package func moved(_ move: BoardSession.Moved) -> String {
        if move.before.state == move.after.state {
            return localizer.string(.messageAlreadyThere, shown(move.after.title), column(move.after.state))
        }
        let moved = localizer.string(
            .messageMoved, shown(move.after.title), column(move.before.state), column(move.after.state))
        guard let next = move.next, let due = next.due, let series = next.recur else { return moved }
        let rule = RecurrenceNames(localizer: localizer, style: style).describe(series.rule)
        return moved + " "
            + localizer.string(.messageNextOccurrence, shown(next.title), .text(style.dateWithWeekday(due)), .text(rule))
    }

    package func deleted(_ task: BoardTask) -> String {
        localizer.string(.messageDeleted, shown(task.title), column(task.state))
    }

    /// What an edit did, field by field (`Renamed 'A' to 'B'.`), or that it changed nothing.
    package func edited(_ edit: BoardSession.Edited) -> String {
        guard let made = edit.made else { return localizer.string(.messageUnchanged, shown(edit.task.title)) }
        return HistoryView(localizer: localizer, style: style).sentence(made)
    }

    /// What an undo or redo did: its history sentence, or for a step of
    /// several tasks (an import) how many it changed.
    package func reverted(_ events: [HistoryEvent], redo: Bool) -> String {
        // A recurring task's completion: its move, and the next occurrence it made.
        if events.count == 2, let move = events.first(where: { $0.action == .moved }),
            let next = events.first(where: { [.added, .removed].contains($0.action) }), next.taskID != move.taskID,
            next.title == move.title
        {
            let change = HistoryView(localizer: localizer, style: style).clause(move)
            return localizer.string(redo ? .messageRedoneWithNext : .messageUndoneWithNext, .text(localizer.afterColon(change)))
        }
        guard events.count == 1, let event = events.first else {
            // Said as what was taken back (an import: the adding of its tasks), never as a new action.
            let made = events.map { redo ? $0 : HistoryView.takenBack($0) }
            if made.allSatisfy({ $0.action == .added }) {
                return localizer.plural(redo ? .messageRedoneAdds : .messageUndoneAdds, count: events.count)
            }
            return localizer.plural(redo ? .messageRedoneStep : .messageUndoneStep, count: events.count)
        }
        let change = HistoryView(localizer: localizer, style: style).clause(event)
        return localizer.string(redo ? .messageRedone : .messageUndone, .text(localizer.afterColon(change)))
    }

    /// What `pm undo --skip` dropped (nil: nothing to say).
    package func skipped(_ events: [HistoryEvent]) -> String? {
        if events.count > 1 { return localizer.plural(.messageSkippedStep, count: events.count) }
        guard let event = events.first else { return nil }
        let change = HistoryView(localizer: localizer, style: style).clause(event)
        return localizer.string(.messageSkipped, .text(localizer.afterColon(change)))
    }

    /// A value kept over a conflict's others.
    package func resolved(_ resolved: BoardSession.Resolved) -> String {
        switch resolved {
        case .column(let task):
            return localizer.string(
                .historyResolved, shown(task.title), .text(FieldNames.label("state", localizer).lowercased()))
        case .field(let edit): return edited(edit)
        case .nothing: return ""
        }
    }

    /// Names new to the board that read like ones on it, each on its own line.
    package func lookalikes(_ lookalikes: [Lookalike]) -> [String] {
        lookalikes.map { found in
            localizer.string(.assignLookalike, shown(found.name), shown(found.like), .text(Self.codePoints(found.name)))
        }
    }

    /// `U+0430 U+006C …`: what tells two names apart that look alike.
    package static func codePoints(_ name: String) -> String {
        name.unicodeScalars.map { scalar in
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }.joined(separator: " ")
    }
}
