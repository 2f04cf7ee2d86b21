import FoundationEssentials
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMViews

/// The web board's HTML: the whole page, and the parts the script swaps in
/// (the columns, the undo/redo bar). Every title, body and name from the
/// board goes through ``HTML/text(_:)``: text in the page, never markup.
struct BoardPage {
    /// What the page shows besides the board.
    struct View {
        var readOnly = false
        var csrf = ""
        var undo = BoardSession.UndoAvailability()
        /// Tasks changed by others since the reader last looked.
        var changed: Set<TaskID> = []
        /// Tasks whose deadline reminder is due now (their day, from `PM_REMIND_AT`).
        var reminders: Set<TaskID> = []
        /// Where the board syncs (nil: it does not).
        var sync: SyncView?
        /// The newest changes, said as `pm history` says them.
        var history: [HistoryLine] = []
        /// The filters' values, echoed into their fields.
        var text = ""
        var mine = false
        var overdue = false
        /// Cards shown per column before "N more".
        var pageSize = 100
    }

    /// One change in the history panel.
    struct HistoryLine {
        var when: String
        var who: String
        var what: String
    }

    let reader: WebReader
    let view: View
    let today: CivilDate
    /// When the page is made: a deadline with a time is overdue once it has passed.
    var now: Date?
    var l: Localizer { reader.localizer }

    /// The whole page.
    func document(tasks: [BoardTask], message: String = "") -> String {
        let title = HTML.text(l.string(.webTitle))
        var html = """
            <!DOCTYPE html>
            <html lang="\(reader.languageTag)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="pm-csrf" content="\(HTML.text(view.csrf))">
            <meta name="referrer" content="no-referrer">
            <meta name="color-scheme" content="light dark">
            <title>\(title)</title>
            <link rel="stylesheet" href="/static/app.css">
            <script src="/static/app.js" defer></script>
            </head>
            <body data-offline="\(HTML.text(l.string(.webOffline)))">
            <header>
            <h1>\(title)</h1>
            \(languageSwitch())
            <div id="bar" role="group" aria-label="\(HTML.text(l.string(.webActions)))">\(bar())</div>
            </header>
            <main>

            """
        if view.readOnly {
            html += "<p class=\"readonly\">\(HTML.text(l.string(.webReadOnly)))</p>\n"
        } else {
            html += addForm()
        }
        html += filterForm()
        html += "<p id=\"status\" role=\"status\" aria-live=\"polite\">\(HTML.text(message))</p>\n"
        html += "<div id=\"board\" class=\"board\">\(columns(tasks))</div>\n"
        html += "<div id=\"history\">\(historyPart())</div>\n</main>\n"
        html += dialogs()
        return html + "</body>\n</html>\n"
    }

    /// The undo, redo (greyed out, saying why) and their reasons.
    func bar() -> String {
        guard !view.readOnly else { return syncPart() + newsPart() }
        let undoWhy: L10nKey? =
            !view.undo.canUndo ? .boardNoticeNothingToUndo : view.undo.undoBlocked ? .boardNoticeUndoBlocked : nil
        let redoWhy: L10nKey? = view.undo.canRedo ? nil : .boardNoticeNothingToRedo
        var html = button("undo", l.string(.webUndo), disabledBecause: undoWhy)
        html += button("redo", l.string(.webRedo), disabledBecause: redoWhy)
        return html + syncPart() + newsPart()
    }

    private func button(_ action: String, _ label: String, disabledBecause why: L10nKey?) -> String {
        guard let why else {
            return "<button type=\"button\" id=\"\(action)\" data-action=\"\(action)\">\(HTML.text(label))</button>"
        }
        return "<button type=\"button\" id=\"\(action)\" data-action=\"\(action)\" disabled aria-describedby=\"\(action)-why\">"
            + "\(HTML.text(label))</button><span class=\"why\" id=\"\(action)-why\">\(HTML.text(l.string(why)))</span>"
    }

    private func languageSwitch() -> String {
        var html = "<label>\(HTML.text(l.string(.webLanguage))) <select id=\"language\">"
        for code in TableSource.shippedLanguages.sorted() {
            // Each language by its own name, so that a reader finds theirs.
            let own = Localizer(chain: LanguageChain([code])).string(.languageName)
            let selected = reader.languageTag == code ? " selected" : ""
            html += "<option value=\"\(HTML.text(code))\" lang=\"\(HTML.text(code))\"\(selected)>\(HTML.text(own))</option>"
        }
        return html + "</select></label>"
    }

    private func addForm() -> String {
        """
        <form id="add" class="add" aria-label="\(HTML.text(l.string(.boardFormAddTitle)))">
        <label>\(HTML.text(l.string(.boardFormTitle))) <input name="title" required maxlength="500" autocomplete="off"></label>
        <label>\(HTML.text(l.string(.boardFormDue))) <input name="due" type="date"></label>
        <button type="submit" class="primary">\(HTML.text(l.string(.webAdd)))</button>
        </form>

        """
    }

    private func filterForm() -> String {
        """
        <form id="filters" class="filters" role="search" aria-label="\(HTML.text(l.string(.webFilters)))">
        <label>\(HTML.text(l.string(.webFilterText))) <input name="q" type="search" value="\(HTML.text(view.text))"></label>
        <label class="check"><input name="mine" type="checkbox"\(view.mine ? " checked" : "")> \(HTML.text(l.string(.webFilterMine)))</label>
        <label class="check"><input name="overdue" type="checkbox"\(view.overdue ? " checked" : "")> \(HTML.text(l.string(.webFilterOverdue)))</label>
        </form>

        """
    }

    /// The three columns with their cards (the part live updates replace).
    func columns(_ tasks: [BoardTask]) -> String {
        var html = ""
        // One pass over the tasks (a 10k board's), not one per column.
        let byState = Dictionary(grouping: tasks, by: \.state)
        for state in TaskState.allCases {
            let cards = byState[state] ?? []
            let name = HTML.text(l.string(StateNames.key(state)))
            html += "<section class=\"column\" data-state=\"\(state.rawValue)\" aria-labelledby=\"column-\(state.rawValue)\">"
            html += "<h2 id=\"column-\(state.rawValue)\">\(name) <span class=\"count\">\(cards.count)</span></h2>\n"
            if cards.isEmpty { html += "<p class=\"empty\">\(HTML.text(l.string(.htmlEmpty)))</p>\n" }
            html += "<ul class=\"cards\">\n"
            for task in cards.prefix(view.pageSize) { html += card(task) }
            html += "</ul>\n"
            if cards.count > view.pageSize {
                html += "<p class=\"more\">\(HTML.text(l.plural(.webMore, count: cards.count - view.pageSize)))</p>\n"
            }
            html += "</section>\n"
        }
        return html
    }
}
