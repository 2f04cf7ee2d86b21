import PMCore
import PMICU
import PMLocalization

/// A card's priority, recurrence, labels, checklist and comments on a page (`pm export
/// html`, `pm serve`): marks readable without colour, the checklist and the
/// comments folded away until opened. Every text escaped; no script.
package struct CardHTML {
    package var localizer: Localizer
    package var style: TextStyle

    package init(localizer: Localizer, style: TextStyle) {
        self.localizer = localizer
        self.style = style
    }

    private func html(_ text: String) -> String { HTMLText.escaped(TextSafety.escaped(text)) }

    /// The parts a card carries, or nothing when it has none.
    package func parts(of task: BoardTask) -> String {
        let l = localizer
        var out = ""
        if let priority = task.priority {
            let text = l.string(
                .htmlPriority, .text(PriorityNames.mark(priority, localizer: l)),
                .text(PriorityNames.name(priority, localizer: l)))
            out += "<p class=\"priority \(priority.rawValue)\">\(HTMLText.escaped(text))</p>\n"
        }
        if let series = task.recur {
            let rule = RecurrenceNames(localizer: l, style: style).describe(series)
            out += "<p class=\"recur\">\(HTMLText.escaped(l.string(.htmlRecur, .text(rule))))</p>\n"
        }
        if !task.labels.isEmpty {
            let names = task.labels.map { "#" + TextSafety.escaped($0) }.joined(separator: " ")
            out += "<p class=\"labels\">\(HTMLText.escaped(l.string(.htmlLabels, .text(names))))</p>\n"
        }
        let items = task.checklist
        if !items.isEmpty {
            let (done, total) = task.progress
            out += "<details class=\"checklist\"><summary>"
            out += HTMLText.escaped(l.string(.showChecklist, .number(done), .number(total))) + "</summary><ol>\n"
            for item in items {
                let said = HTMLText.escaped(l.string(item.done ? .htmlDone : .htmlNotDone))
                out += "<li class=\"\(item.done ? "done" : "open")\"><span class=\"tick\" aria-label=\"\(said)\">"
                out += item.done ? "☑" : "☐"
                out += "</span> \(html(item.text ?? ""))</li>\n"
            }
            out += "</ol></details>\n"
        }
        let comments = task.comments
        if !comments.isEmpty {
            out += "<details class=\"comments\"><summary>"
            out += HTMLText.escaped(l.string(.htmlComments, .number(comments.count))) + "</summary><ol>\n"
            for comment in comments {
                var heading = l.string(.htmlCommentBy, .text(TextSafety.escaped(comment.by)), .text(style.dateTime(comment.at)))
                if comment.edited != nil { heading = l.string(.showCommentEdited, .text(heading)) }
                out += "<li><p class=\"by\">\(HTMLText.escaped(heading))</p>"
                let text = HTMLText.escaped(TextSafety.escaped(comment.text ?? "", keepNewlines: true))
                out += "<p class=\"text\">\(text)</p></li>\n"
            }
            out += "</ol></details>\n"
        }
        return out
    }
}
