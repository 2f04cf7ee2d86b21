import PMCore
import PMICU
import PMLocalization

/// Renders `pm show`: every field of one task, labels aligned in cells, body last.
struct TaskView {
    var localizer: Localizer
    var style: TextStyle
    var today: CivilDate

    func render(_ task: BoardTask) -> [String] {
        let l = localizer
        var due = l.string(.showNoDue)
        if let date = task.due {
            due = style.date(date)
            if task.isOverdue(today: today) { due = style.red(due + " " + l.string(.showOverdue)) }
        }
        let rows: [(L10nKey, String)] = [
            (.showId, task.id.rawValue),
            (.showTitle, TextSafety.escaped(task.title)),
            (.showState, l.string(StateNames.key(task.state))),
            (.showDue, due),
            (.showCreated, style.dateTime(task.createdAt)),
            (.showUpdated, style.dateTime(task.updatedAt)),
        ]
        let labels = rows.map { l.string($0.0) }
        let labelWidth = labels.map { TerminalCells.width(of: $0) }.max() ?? 0
        var lines = zip(labels, rows).map { label, row in
            style.bold(TerminalCells.pad(label, toWidth: labelWidth)) + "  " + row.1
        }
        if !task.body.isEmpty {
            lines.append("")
            lines.append(style.bold(l.string(.showBody)))
            lines += TextSafety.escaped(task.body, keepNewlines: true).split(separator: "\n", omittingEmptySubsequences: false)
                .map(String.init)
        }
        return lines
    }
}
