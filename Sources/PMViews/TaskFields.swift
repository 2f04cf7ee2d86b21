import FoundationEssentials
import PMCore
import PMICU
import PMKit
import PMLocalization

/// Every field of one task as `pm show` lists them, label and value, in
/// its order: the id, title, column, deadline, people, times, a conflict's
/// values, whether it was restored. How they are laid out (aligned in a
/// terminal's cells, a page's table) is the front end's.
package struct TaskFields {
    /// One field: its label, its value (safe text), and whether it calls
    /// for attention (a deadline passed, a conflict), which a terminal
    /// shows in red.
    package struct Row: Equatable {
        package var label: String
        package var value: String
        package var alert: Bool
    }

    package var localizer: Localizer
    /// Dates in the reader's form; the values are never coloured (see ``Row/alert``).
    package var style: TextStyle
    package var today: CivilDate
    /// The instant shown at: a deadline with a time is overdue once it has passed.
    package var now: Date?

    package init(localizer: Localizer, style: TextStyle, today: CivilDate, now: Date? = nil) {
        self.localizer = localizer
        self.style = style
        self.today = today
        self.now = now
    }

    package func rows(_ task: BoardTask) -> [Row] {
        let l = localizer
        var due = (text: l.string(.showNoDue), overdue: false)
        if let deadline = task.deadline {
            due = (style.deadline(deadline, localizer: l), false)
            if task.isOverdue(today: today, now: now) { due = (due.text + " " + l.string(.showOverdue), true) }
        }
        var rows: [(L10nKey, String, Bool)] = [
            (.showID, task.id.rawValue, false),
            (.showTitle, TextSafety.escaped(task.title), false),
            (.showState, l.string(StateNames.key(task.state)), false),
            (.showDue, due.text, due.overdue),
        ]
        if !task.assignees.isEmpty {
            rows.append((.showAssignees, l.list(task.assignees.map { TextSafety.escaped($0) }), false))
        }
        if let series = task.recur {
            // The rule, and the deadline of the occurrence that follows this one once done.
            let names = RecurrenceNames(localizer: l, style: style)
            let next = task.state == .done ? nil : series.next(after: task.due, today: today)
            let text = next.map { l.string(.recurAfter, .text(names.describe(series)), .text(style.dateWithWeekday($0))) }
            rows.append((.showRecur, text ?? names.describe(series), false))
        }
        if let priority = task.priority {
            let mark = PriorityNames.mark(priority, localizer: l)
            rows.append((.showPriority, mark + " " + PriorityNames.name(priority, localizer: l), false))
        }
        if !task.labels.isEmpty {
            rows.append((.showLabels, l.list(task.labels.map { TextSafety.escaped($0) }), false))
        }
        rows += [
            (.showCreated, style.dateTime(task.createdAt), false),
            (.showUpdated, style.dateTime(task.updatedAt), false),
        ]
        for field in task.conflicts.keys.sorted() {
            let values = (task.conflicts[field] ?? []).map { FieldNames.value($0, of: field, localizer: l, style: style) }
            let text = l.string(.showConflictValues, .text(FieldNames.label(field, l)), .text(l.list(values)))
            rows.append((.showConflict, text, true))
        }
        if task.restored { rows.append((.showRestored, l.string(.showRestoredValue), false)) }
        return rows.map { Row(label: l.string($0.0), value: $0.1, alert: $0.2) }
    }

    /// The checklist as lines: its heading with the progress, then each
    /// item with its number (what `pm check` takes) and a tick readable
    /// without colour. Empty when the card has none.
    package func checklist(_ task: BoardTask) -> (heading: String, items: [String]) {
        let items = task.checklist
        guard !items.isEmpty else { return ("", []) }
        let (done, total) = task.progress
        let lines = items.enumerated().map { index, item in
            "\(index + 1). " + (item.done ? "[x] " : "[ ] ") + TextSafety.escaped(item.text ?? "")
        }
        return (localizer.string(.showChecklist, .number(done), .number(total)), lines)
    }

    /// The comments, oldest first: a heading each (number, author, time,
    /// whether rewritten) and its text, lines kept.
    package func comments(_ task: BoardTask) -> [(heading: String, text: [String])] {
        task.comments.enumerated().map { index, comment in
            var heading = localizer.string(
                .showCommentBy, .text(String(index + 1)), .text(TextSafety.escaped(comment.by)),
                .text(style.dateTime(comment.at)))
            if comment.edited != nil { heading = localizer.string(.showCommentEdited, .text(heading)) }
            let text = TextSafety.escaped(comment.text ?? "", keepNewlines: true)
            return (heading, text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        }
    }
}
