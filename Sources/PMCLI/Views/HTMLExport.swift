import FoundationEssentials
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMViews

/// `pm export html`: one self-contained, read-only page of the board in the
/// reader's language, for people who never open a terminal — the three
/// columns with their counts, cards with deadlines (overdue in red and in
/// words), assignees and conflicts marked, the newest changes, and when it
/// was made. Responsive (one column on a phone, three side by side from a
/// tablet up), dark by the system's setting, printable. No script, no
/// network: a Content-Security-Policy allows nothing but its own style, and
/// every text from the board is escaped. Pure: board in, page out.
struct HTMLExport: BoardExporter {
    var localizer: Localizer
    var style: TextStyle
    var today: CivilDate
    /// When the page was made, ISO 8601 UTC.
    var madeAt: String
    var now: Date? { Timestamp.parse(madeAt, zone: .utc) }
    /// The newest changes, newest first: who (safe text, ``HistoryView/who(_:)``) and history sentences.
    var newest: [(at: String, by: String, sentence: String)]
    /// Shown in the header when the board was filtered (`--mine`, `--state`...).
    var filterNote: String?

    func document(_ tasks: [BoardTask]) -> String { page(tasks) }

    func page(_ tasks: [BoardTask]) -> String {
        let l = localizer
        let overdue = tasks.filter { $0.isOverdue(today: today, now: now) }.count
        var summary = l.plural(.listSummary, count: tasks.count)
        if overdue > 0 { summary += " · " + l.plural(.listOverdue, count: overdue) }
        var html = """
            <!DOCTYPE html>
            <html lang="\(Self.escaped(Self.languageTag(l.language)))">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="\(Self.policy)">
            <meta name="referrer" content="no-referrer">
            <meta name="color-scheme" content="light dark">
            <meta name="generator" content="pm \(PMVersion.string)">
            <title>\(Self.escaped(l.string(.htmlTitle)))</title>
            <style>\(Self.css)</style>
            </head>
            <body>
            <header>
            <h1>\(Self.escaped(l.string(.htmlTitle)))</h1>
            <p class="summary">\(Self.escaped(summary))</p>
            <p class="made">\(Self.escaped(l.string(.htmlMade, .text(style.momentInSentence(madeAt)))))</p>

            """
        if let filterNote { html += "<p class=\"filter\">\(Self.escaped(filterNote))</p>\n" }
        html += "</header>\n<main>\n"
        for state in TaskState.allCases {
            // The soonest deadline first, as `pm list` shows them; then in creation order.
            let cards = BoardTask.byDeadline(tasks.filter { $0.state == state })
            let name = l.string(StateNames.key(state))
            html += "<section class=\"column \(state.rawValue)\" aria-label=\"\(Self.escaped(name))\">\n"
            html += "<h2>\(Self.escaped(name)) <span class=\"count\">\(cards.count)</span></h2>\n"
            if cards.isEmpty {
                html += "<p class=\"empty\">\(Self.escaped(l.string(.htmlEmpty)))</p>\n"
            } else {
                html += "<ol>\n" + cards.map(card).joined() + "</ol>\n"
            }
            html += "</section>\n"
        }
        html += "</main>\n"
        if !newest.isEmpty {
            html += "<section class=\"newest\">\n<h2>\(Self.escaped(l.string(.htmlNewest)))</h2>\n<ol>\n"
            for change in newest {
                html += "<li><time>\(Self.escaped(style.dateTime(change.at)))</time> "
                html += "<span class=\"by\">\(Self.escaped(change.by))</span> "
                html += Self.escaped(change.sentence) + "</li>\n"
            }
            html += "</ol>\n</section>\n"
        }
        html += "<footer><p>\(Self.escaped(l.string(.htmlFooter)))</p></footer>\n</body>\n</html>\n"
        return html
    }

    private func card(_ task: BoardTask) -> String {
        let l = localizer
        let late = task.isOverdue(today: today, now: now)
        var html = "<li class=\"card\(late ? " overdue" : "")\(task.conflicts.isEmpty ? "" : " conflict")\">\n"
        html += "<h3>\(Self.escaped(TextSafety.escaped(task.title)))</h3>\n"
        if let deadline = task.deadline {
            let due = deadline.shown(in: style.zone).date
            let key: L10nKey = late ? .htmlOverdue : due == today ? .htmlDueToday : .htmlDue
            let text = l.string(key, .text(style.deadline(deadline, localizer: l)))
            html +=
                "<p class=\"due\(due == today ? " today" : "")\"><time datetime=\"\(HTMLDeadline.machine(deadline))\">\(Self.escaped(text))</time></p>\n"
        }
        if !task.assignees.isEmpty {
            let names = Assignees.sorted(task.assignees).map { "@" + TextSafety.escaped($0) }.joined(separator: " ")
            html += "<p class=\"who\">\(Self.escaped(l.string(.htmlAssigned, .text(names))))</p>\n"
        }
        html += CardHTML(localizer: l, style: style).parts(of: task)
        for field in task.conflicts.keys.sorted() {
            let values = (task.conflicts[field] ?? []).map {
                FieldNames.value(
                    $0, of: field, localizer: l,
                    style: TextStyle(color: false, formatLocale: style.formatLocale, zone: style.zone))
            }
            let text = l.string(.showConflictValues, .text(FieldNames.label(field, l)), .text(l.list(values)))
            html += "<p class=\"conflicted\">\(Self.escaped(l.string(.htmlConflict, .text(l.afterColon(text)))))</p>\n"
        }
        if !task.body.isEmpty {
            html += "<p class=\"body\">\(Self.escaped(TextSafety.escaped(task.body, keepNewlines: true)))</p>\n"
        }
        return html + "</li>\n"
    }

    /// Text as HTML character data or an attribute value: nothing in it is markup.
    static func escaped(_ text: String) -> String { HTMLText.escaped(text) }

    /// `fr`, `ko`, `en` from the table's language (`en_XA`: `en`).
    static func languageTag(_ language: String) -> String {
        String(language.prefix { $0.isLetter && $0.isASCII }).lowercased()
    }

    /// Nothing may load or run: no script, no frame, no form, no fetch; only
    /// this page's own style, named by its hash.
    static var policy: String {
        "default-src 'none'; style-src 'sha256-\(Digest.base64(Digest.sha256(Array(css.utf8))))'; "
            + "img-src 'none'; base-uri 'none'; form-action 'none'"
    }

    static let css = """

        :root{color-scheme:light dark;--bg:#f6f6f3;--card:#fff;--ink:#1d1d1f;--dim:#5f6368;--line:#d8d8d2;--late:#b3261e;--warn:#8a5a00}
        @media (prefers-color-scheme:dark){:root{--bg:#141416;--card:#1f1f23;--ink:#ececf0;--dim:#a4a4ad;--line:#36363d;--late:#ff8a80;--warn:#ffcc66}}
        *{box-sizing:border-box}
        body{margin:0;padding:1rem;background:var(--bg);color:var(--ink);font:16px/1.45 system-ui,-apple-system,"Segoe UI","Noto Sans","Noto Sans KR","Apple SD Gothic Neo","Malgun Gothic","NanumGothic",sans-serif;word-break:keep-all;overflow-wrap:anywhere}
        header h1{margin:0 0 .25rem;font-size:1.5rem}
        header p{margin:.1rem 0;color:var(--dim)}
        main{display:grid;grid-template-columns:1fr;gap:1rem;margin-top:1rem}
        @media (min-width:48rem){main{grid-template-columns:repeat(3,minmax(0,1fr))}}
        .column{background:color-mix(in srgb,var(--line) 35%,transparent);border-radius:.75rem;padding:.75rem}
        .column h2{margin:0 0 .5rem;font-size:1rem;letter-spacing:.03em}
        .count{display:inline-block;min-width:1.6em;padding:0 .4em;border-radius:1em;background:var(--card);color:var(--dim);text-align:center;font-weight:normal}
        ol{list-style:none;margin:0;padding:0}
        .card{background:var(--card);border:1px solid var(--line);border-left:4px solid var(--line);border-radius:.5rem;padding:.6rem .75rem;margin:0 0 .6rem}
        .card h3{margin:0;font-size:1rem}
        .card p{margin:.3rem 0 0;font-size:.9rem}
        .due,.who,.labels{color:var(--dim)}
        .priority.urgent,.priority.high{font-weight:bold}
        .checklist ol,.comments ol{list-style:none;padding-left:0;margin:.2em 0}
        .checklist li.done{color:var(--dim)}
        .comments .by{color:var(--dim);margin:.3em 0 0}
        .comments .text{white-space:pre-wrap;margin:0}
        .overdue{border-left-color:var(--late)}
        .overdue .due{color:var(--late);font-weight:bold}
        .due.today{font-weight:bold}
        .conflict{border-left-color:var(--warn)}
        .conflicted{color:var(--warn)}
        .body{white-space:pre-wrap}
        .empty{color:var(--dim);font-style:italic}
        .newest{margin-top:1.5rem}
        .newest h2{font-size:1rem}
        .newest li{margin:.25rem 0;color:var(--dim)}
        .newest time,.newest .by{color:var(--ink)}
        footer{margin-top:1.5rem;color:var(--dim);font-size:.85rem}
        @media print{body{background:#fff;color:#000;padding:0}.column{background:none;border:1px solid #999}.card{break-inside:avoid;border-color:#999}.overdue{border-left:4px solid #000}main{grid-template-columns:repeat(3,1fr)}}

        """
}
