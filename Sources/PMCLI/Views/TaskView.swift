import PMCore
import PMICU
import PMKit
import PMLocalization
import PMViews

/// Renders `pm show`: every field of one task (``TaskFields``), labels
/// aligned in terminal cells, body last.
struct TaskView {
    var localizer: Localizer
    var style: TextStyle
    var today: CivilDate

    func render(_ task: BoardTask) -> [String] {
        let l = localizer
        let rows = TaskFields(localizer: l, style: style, today: today).rows(task)
        let labelWidth = rows.map { TerminalCells.width(of: $0.label) }.max() ?? 0
        var lines = rows.map { row in
            style.bold(TerminalCells.pad(row.label, toWidth: labelWidth)) + "  " + (row.alert ? style.red(row.value) : row.value)
        }
        if !task.conflicts.isEmpty { lines.append(l.string(.showConflictHint)) }
        if !task.body.isEmpty {
            lines.append("")
            lines.append(style.bold(l.string(.showBody)))
            lines += TextSafety.escaped(task.body, keepNewlines: true).split(separator: "\n", omittingEmptySubsequences: false)
                .map(String.init)
        }
        return lines
    }
}
