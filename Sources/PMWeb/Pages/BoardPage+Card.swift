import PMCore
import PMICU
import PMKit
import PMLocalization
import PMViews

/// A card, and the dialogs the script opens.
extension BoardPage {
    /// A card: what the board holds about its task, and what a reader can
    /// do with it. Each card names its task once (`data-id`); the script
    /// finds the rest from there, which keeps a page of 300 cards small.
    func card(_ task: BoardTask) -> String {
        let late = task.isOverdue(today: today, now: now)
        // Shown: controls and bidi overrides made visible, as the terminal does.
        let shown = HTML.text(TextSafety.escaped(task.title))
        var classes = "card"
        if late { classes += " overdue" }
        if !task.conflicts.isEmpty { classes += " conflict" }
        var html = "<li class=\"\(classes)\" data-id=\"\(task.id.description)\" data-title=\"\(HTML.text(task.title))\""
        html +=
            " data-due=\"\(task.due?.description ?? "")\" data-assignees=\"\(HTML.text(task.assignees.joined(separator: ", ")))\""
        html += view.readOnly ? " data-read-only=\"1\">" : "><span class=\"grip\" aria-hidden=\"true\">⠿</span>"
        html += "<h3>\(shown)"
        if view.changed.contains(task.id) { html += " <span class=\"new\">\(HTML.text(l.string(.webNew)))</span>" }
        html += "</h3>\n"
        if let due = task.deadline { html += deadline(due, late: late, reminded: view.reminders.contains(task.id)) }
        if !task.assignees.isEmpty {
            let names = Assignees.sorted(task.assignees).map { "@" + TextSafety.escaped($0) }.joined(separator: " ")
            html += "<p class=\"who\">\(HTML.text(l.string(.htmlAssigned, .text(names))))</p>\n"
        }
        html += CardHTML(localizer: l, style: reader.style).parts(of: task)
        html += conflicts(task)
        if !task.body.isEmpty {
            // The body as it is (the edit form starts from it); opened on demand.
            html += "<details class=\"body\"><summary>\(HTML.text(l.string(.boardFormBody)))</summary>"
            html += "<p data-raw=\"\(task.body == TextSafety.escaped(task.body, keepNewlines: true) ? "1" : "0")\">"
            html += "\(HTML.text(TextSafety.escaped(task.body, keepNewlines: true)))</p></details>\n"
        }
        if !view.readOnly { html += actions(task) }
        return html + "</li>\n"
    }

    /// The deadline: overdue in red and in words, today said so, bold once
    /// its reminder is due (as the terminal's board marks it).
    private func deadline(_ deadline: Deadline, late: Bool, reminded: Bool) -> String {
        let day = deadline.shown(in: reader.style.zone).date
        let key: L10nKey = late ? .htmlOverdue : day == today ? .htmlDueToday : .htmlDue
        let text = HTML.text(l.string(key, .text(reader.style.deadline(deadline, localizer: l))))
        let look = reminded ? " reminded" : ""
        return "<p class=\"due\(look)\"><time datetime=\"\(HTMLDeadline.machine(deadline))\">\(text)</time></p>\n"
    }

    /// Each field in conflict with every value, and a button to keep each
    /// (the one shown now first, as the terminal's board lists them).
    private func conflicts(_ task: BoardTask) -> String {
        var html = ""
        let choices = ConflictChoice.all(of: task)
        for field in task.conflicts.keys.sorted() {
            let label = FieldNames.label(field, l)
            html +=
                "<div class=\"conflicted\"><p>\(HTML.text(l.string(.boardConflictTitle, .text(TextSafety.escaped(task.title)))))"
            html += " (\(HTML.text(label)))</p>"
            if view.readOnly {
                let values = choices.filter { $0.field == field }.map {
                    FieldNames.value($0.value, of: field, localizer: l, style: reader.style)
                }
                html += "<p>\(HTML.text(values.joined(separator: " · ")))</p></div>\n"
                continue
            }
            for (index, choice) in choices.enumerated() where choice.field == field {
                var shown = FieldNames.value(choice.value, of: field, localizer: l, style: reader.style)
                if choice.shown { shown = l.string(.boardConflictShown, .text(shown)) }
                html +=
                    "<button type=\"button\" data-action=\"resolve\" data-field=\"\(HTML.text(field))\" data-choice=\"\(index)\">"
                html += HTML.text(l.string(.webKeep, .text(shown))) + "</button>"
            }
            html += "</div>\n"
        }
        return html
    }

    /// Move (a menu), edit and delete; the card's heading names what they act on.
    private func actions(_ task: BoardTask) -> String {
        let title = MessageArgument.text(TextSafety.escaped(task.title))
        var html = "<div class=\"actions\"><label><span class=\"sr-only\">\(HTML.text(l.string(.webMoveLabel, title)))</span>"
        html += "<select data-move><option value=\"\">\(HTML.text(l.string(.webMoveTo)))</option>"
        for state in TaskState.allCases where state != task.state {
            html += "<option value=\"\(state.rawValue)\">\(HTML.text(l.string(StateNames.key(state))))</option>"
        }
        html += "</select></label><button type=\"button\" data-action=\"edit\">\(HTML.text(l.string(.webEdit)))</button>"
        html +=
            "<button type=\"button\" data-action=\"delete\" data-question=\"\(HTML.text(l.string(.webConfirmDelete, title)))\">"
        return html + "\(HTML.text(l.string(.webDelete)))</button></div>\n"
    }

    /// The delete question and the edit form, opened by the script.
    func dialogs() -> String {
        """
        <dialog id="confirm" aria-labelledby="confirm-question"><form method="dialog">
        <p class="question" id="confirm-question"></p>
        <div class="buttons"><button value="no">\(HTML.text(l.string(.boardNo)))</button>
        <button value="yes" class="primary">\(HTML.text(l.string(.boardYes)))</button></div>
        </form></dialog>
        <dialog id="race" aria-labelledby="race-question"><form method="dialog">
        <p class="question" id="race-question">\(HTML.text(l.string(.webLostRace)))</p><ul class="values"></ul>
        <div class="buttons"><button value="theirs">\(HTML.text(l.string(.webKeepTheirs)))</button>
        <button value="mine" class="primary">\(HTML.text(l.string(.webKeepMine)))</button></div>
        </form></dialog>
        <dialog id="edit" aria-labelledby="edit-heading"><form method="dialog">
        <h2 id="edit-heading">\(HTML.text(l.string(.webEditTitle)))</h2>
        <input type="hidden" name="id">
        <label>\(HTML.text(l.string(.boardFormTitle))) <input name="title" required maxlength="500"></label>
        <label>\(HTML.text(l.string(.boardFormBody))) <textarea name="body" rows="4"></textarea></label>
        <label>\(HTML.text(l.string(.boardFormDue))) <input name="due" type="date"></label>
        <label>\(HTML.text(l.string(.boardFormAssignees))) <input name="assignees" aria-describedby="assignees-hint"></label>
        <p id="assignees-hint" class="why">\(HTML.text(l.string(.webAssigneesHint)))</p>
        <div class="buttons"><button value="cancel" formnovalidate>\(HTML.text(l.string(.webCancel)))</button>
        <button value="save" class="primary">\(HTML.text(l.string(.webSave)))</button></div>
        </form></dialog>

        """
    }
}

/// Text made safe for HTML (PMViews' escaping, which `pm export html` uses too).
enum HTML {
    /// Text as character data or an attribute value: nothing in it is markup.
    static func text(_ text: String) -> String { HTMLText.escaped(text) }
}
