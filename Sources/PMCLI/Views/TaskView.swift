import PMCore
import PMICU
import PMKit
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
        var rows: [(L10nKey, String)] = [
            (.showID, task.id.rawValue),
            (.showTitle, TextSafety.escaped(task.title)),
            (.showState, l.string(StateNames.key(task.state))),
            (.showDue, due),
        ]
        if !task.assignees.isEmpty {
            rows.append((.showAssignees, task.assignees.map { TextSafety.escaped($0) }.joined(separator: ", ")))
        }
        rows += [
            (.showCreated, style.dateTime(task.createdAt)),
            (.showUpdated, style.dateTime(task.updatedAt)),
        ]
        for field in task.conflicts.keys.sorted() {
            let values = (task.conflicts[field] ?? []).map { FieldNames.value($0, of: field, localizer: l, style: style) }
            let text = l.string(.showConflictValues, .text(FieldNames.label(field, l)), .text(values.joined(separator: ", ")))
            rows.append((.showConflict, style.red(text)))
        }
        if task.restored { rows.append((.showRestored, l.string(.showRestoredValue))) }
        let labels = rows.map { l.string($0.0) }
        let labelWidth = labels.map { TerminalCells.width(of: $0) }.max() ?? 0
        var lines = zip(labels, rows).map { label, row in
            style.bold(TerminalCells.pad(label, toWidth: labelWidth)) + "  " + row.1
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

/// A task field's name and values as a person reads them (sync's conflicts).
enum FieldNames {
    static func label(_ field: String, _ localizer: Localizer) -> String {
        switch field {
        case "title": return localizer.string(.showTitle)
        case "body": return localizer.string(.showBody)
        case "due": return localizer.string(.showDue)
        case "state": return localizer.string(.showState)
        default: return TextSafety.escaped(field)
        }
    }

    static func value(_ value: JSONValue, of field: String, localizer: Localizer, style: TextStyle) -> String {
        switch (field, value) {
        case ("state", .string(let name)):
            return TaskState(rawValue: name).map { localizer.string(StateNames.key($0)) } ?? TextSafety.escaped(name)
        case ("due", .null): return localizer.string(.showNoDue)
        case ("due", .string(let iso)): return CivilDate(iso: iso).map(style.date) ?? TextSafety.escaped(iso)
        case (_, .string(let text)): return localizer.quoted(TextSafety.escaped(text))
        case (_, .null): return "-"
        case (_, .bool(let flag)): return flag ? "true" : "false"
        case (_, .number(let literal)): return literal
        default: return "…"
        }
    }
}
