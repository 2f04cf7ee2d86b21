import FoundationEssentials
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
    var now: Date? = nil

    func render(_ task: BoardTask) -> [String] {
        let l = localizer
        let fields = TaskFields(localizer: l, style: style, today: today, now: now)
        let rows = fields.rows(task)
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
        let checklist = fields.checklist(task)
        if !checklist.items.isEmpty {
            lines += ["", style.bold(checklist.heading)] + checklist.items.map { "  " + $0 }
        }
        let comments = fields.comments(task)
        if !comments.isEmpty {
            lines += ["", style.bold(l.string(.showComments))]
            for comment in comments { lines += ["  " + style.dim(comment.heading)] + comment.text.map { "    " + $0 } }
        }
        return lines
    }
}
