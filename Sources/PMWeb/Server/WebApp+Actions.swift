import PMCore
import PMICU
import PMKit
import PMLocalization
import PMViews

/// The page, its parts, and the changes a visitor makes: each one use case
/// of ``BoardSession``, said with the terminal's own sentences.
extension WebApp {
    /// The session a visitor acts through: the person who started the
    /// server, or the one a personal link names (their own undo, news, key).
    func session(for visitor: WebAccess.Visitor) -> BoardSession {
        if let known = sessions[visitor.person] { return known }
        let made = launch.session.acting(as: visitor.person)
        sessions[visitor.person] = made
        return made
    }

    func page(_ request: WebRequest, _ reader: WebReader, _ visitor: WebAccess.Visitor) -> WebResponse {
        do {
            // The filters apply in the page's parts, never in the page itself
            // (nothing a request says is in the page with the CSRF token).
            let (page, tasks) = try render([:], reader, visitor)
            return .html(page.document(tasks: tasks))
        } catch {
            return .html(HTML.text(describe(error, reader)), status: 500)
        }
    }

    /// The columns and the bar as JSON, for the script to swap in.
    func parts(_ fields: [String: String], _ reader: WebReader, _ visitor: WebAccess.Visitor, message: String?, status: Int = 200)
        -> WebResponse
    {
        var json: [(String, String)] = []
        if let message { json.append(("message", message)) }
        do {
            json += try partsFor(fields, reader, visitor)
        } catch {
            json = [("message", describe(error, reader))]
            return WebResponse(status: 500, contentType: "application/json", body: Array(JSONText.object(json).utf8))
        }
        return WebResponse(status: status, contentType: "application/json", body: Array(JSONText.object(json).utf8))
    }

    /// `GET /board`: the parts as JSON, gzipped when the browser takes it;
    /// the bytes are kept too, for the other pages that ask after the same change.
    func boardParts(_ request: WebRequest, _ reader: WebReader, _ visitor: WebAccess.Visitor) -> WebResponse {
        let packed = Gzip.accepted(request.headers["accept-encoding"])
        _ = try? live.current()
        let key = partsKey(request.query, reader, visitor) + (packed ? "\u{0}gzip" : "")
        var response = WebResponse(status: 200, contentType: "application/json")
        if packed { response.headers += [("Content-Encoding", "gzip"), ("Vary", "Accept-Encoding")] }
        if let kept = answerCache[key], kept.version == live.version {
            response.body = kept.body
            return response
        }
        let plain = parts(request.query, reader, visitor, message: nil)
        guard plain.status == 200, let body = packed ? Gzip.compress(plain.body) : plain.body else { return plain }
        // Kept for this version only, and at most 32 (a reader can ask for
        // any number of filters and languages).
        if answerCache.count >= 32 || answerCache.values.contains(where: { $0.version != live.version }) {
            answerCache = answerCache.filter { $0.value.version == live.version }
            if answerCache.count >= 32 { answerCache = [:] }
        }
        answerCache[key] = (live.version, body)
        response.body = body
        return response
    }

    private func partsKey(_ fields: [String: String], _ reader: WebReader, _ visitor: WebAccess.Visitor) -> String {
        [
            visitor.person, reader.localizer.language, reader.formatLocale, reader.zoneName ?? "",
            String((fields["q"] ?? "").prefix(200)), fields["mine"] == "1" ? "1" : "", fields["overdue"] == "1" ? "1" : "",
            syncing ? "1" : "0",
        ].joined(separator: "\u{0}")
    }

    /// The columns, the bar and the history for this reader and filters:
    /// made once per change of the board, whoever asks (fifty open pages
    /// asking at once after a change cost one rendering).
    private func partsFor(_ fields: [String: String], _ reader: WebReader, _ visitor: WebAccess.Visitor) throws -> [(
        String, String
    )] {
        // The board's version as it is now (read again if its files changed).
        _ = try live.current()
        let key = partsKey(fields, reader, visitor)
        if let kept = partsCache[key], kept.version == live.version { return kept.parts }
        let (page, tasks) = try render(fields, reader, visitor)
        let made = [
            ("board", page.columns(tasks)), ("bar", page.bar()), ("history", page.historyPart()),
            ("version", String(live.version)),
        ]
        // The board may have been read again while rendering: kept under the version it is now.
        if partsCache.count >= 32 || partsCache.values.contains(where: { $0.version != live.version }) {
            partsCache = partsCache.filter { $0.value.version == live.version }
            if partsCache.count >= 32 { partsCache = [:] }
        }
        partsCache[key] = (live.version, made)
        return made
    }

    /// The page for these filter fields (`q`, `mine`, `overdue`), and the tasks it shows.
    private func render(_ fields: [String: String], _ reader: WebReader, _ visitor: WebAccess.Visitor) throws -> (
        BoardPage, [BoardTask]
    ) {
        let session = session(for: visitor)
        let board = try live.current()
        let today = reader.today(session.environment.now())
        var view = BoardPage.View(readOnly: launch.readOnly, csrf: visitor.csrf)
        view.undo = launch.readOnly ? .init() : session.undoAvailability(on: board)
        view.changed = session.changedByOthers(on: board)
        view.reminders = Set(
            session.settings.reminders.due(
                session.remindable(board.tasks), now: session.environment.now(), zone: reader.zone
            ).map(\.id))
        view.sync = syncView(launch.session, reader)
        view.history = historyLines(session, reader, person: visitor.person)
        view.text = String((fields["q"] ?? "").prefix(200))
        view.mine = fields["mine"] == "1"
        view.overdue = fields["overdue"] == "1"
        var filter = view.mine ? TaskFilter.remindersFor(visitor.person) : TaskFilter()
        filter.overdue = view.overdue
        var tasks =
            filter.isEmpty ? board.tasks : board.tasks.filter { filter.admits($0, today: today, now: session.environment.now()) }
        if !view.text.isEmpty {
            let match = TextMatch(locale: reader.formatLocale)
            tasks = tasks.filter { match.finds(view.text, in: $0) }
        }
        return (BoardPage(reader: reader, view: view, today: today, now: session.environment.now()), tasks)
    }

    /// A change a visitor asks for: from the page itself only (`Origin`,
    /// CSRF token), never on a read-only server; answered with what it did
    /// (the terminal's sentence) or why not, and the board as it is now.
    func write(_ action: String, _ request: WebRequest, _ reader: WebReader, _ visitor: WebAccess.Visitor) -> WebResponse {
        guard access.sameOrigin(request), access.csrfMatches(request.headers["x-pm-csrf"], for: visitor) else {
            return WebResponse(
                status: 403, contentType: "application/json",
                body: Array(JSONText.object([("message", reader.localizer.string(.webRefused))]).utf8))
        }
        let fields = request.form
        var view: [String: String] = [:]
        for (name, value) in fields where name.hasPrefix("view.") { view[String(name.dropFirst(5))] = value }
        if action == "language" {
            var response = parts(view, reader, visitor, message: nil)
            if let language = fields["language"].flatMap(WebReaders.shipped) {
                response.headers.append(("Set-Cookie", "pm_language=" + language + "; Path=/; SameSite=Strict"))
            }
            return response
        }
        guard !launch.readOnly else {
            return parts(view, reader, visitor, message: reader.localizer.string(.webReadOnly), status: 403)
        }
        do {
            let message = try perform(action, fields, reader, session(for: visitor))
            // A change to the board is seen by the session's afterChange; a
            // news mark changes what this person's parts show.
            if action == "seen" { live.changed(force: true) }
            return parts(view, reader, visitor, message: message)
        } catch WebRefusal.unknownAction {
            return parts(view, reader, visitor, message: reader.localizer.string(.webNotFound), status: 404)
        } catch WebRefusal.lostRace(let lost) {
            var response = parts(view, reader, visitor, message: reader.localizer.string(.webLostRace), status: 409)
            response.body = Array(JSONText.withRace(response.body, race(lost, reader)).utf8)
            return response
        } catch {
            return parts(view, reader, visitor, message: describe(error, reader), status: 409)
        }
    }

    /// Runs one use case; the sentence that says what it did.
    private func perform(_ action: String, _ fields: [String: String], _ reader: WebReader, _ session: BoardSession) throws
        -> String
    {
        let sentences = Sentences(localizer: reader.localizer, style: reader.style)
        let task = { () throws -> TaskRef in
            guard let id = fields["id"].flatMap(TaskID.init) else { throw WebRefusal.noSuchTask }
            return .id(id)
        }
        switch action {
        case "add":
            let title = try Self.title(fields["title"])
            let due = try Self.date(fields["due"])
            return sentences.added(try session.add(title: title, body: fields["body"] ?? "", due: due).task)
        case "move":
            guard let state = fields["to"].flatMap(TaskState.init(rawValue:)) else { throw WebRefusal.unknownAction }
            return sentences.moved(try session.move(try task(), to: state))
        case "delete": return sentences.deleted(try session.delete(try task()))
        case "edit": return try edit(try task(), fields, sentences, session)
        case "undo": return sentences.reverted(try session.undo(), redo: false)
        case "redo": return sentences.reverted(try session.redo(), redo: true)
        case "resolve": return try resolve(fields, sentences, session)
        // The server's copy syncs (its remote, its state), whoever asks.
        case "sync": return try startSync(launch.session, reader)
        case "seen":
            try session.markNewsSeen(on: try live.current())
            return ""
        default: throw WebRefusal.unknownAction
        }
    }

    private func edit(_ task: TaskRef, _ fields: [String: String], _ sentences: Sentences, _ session: BoardSession) throws
        -> String
    {
        // Only the fields the reader changed are sent: a colleague's change
        // to another field meanwhile stays; one to the same field is a race
        // this edit lost, shown with both values.
        if case .id(let id) = task, let current = try live.current().task(id) {
            let lost = Self.lostRace(current, fields)
            if !lost.isEmpty { throw WebRefusal.lostRace(lost) }
        }
        var edit = Board.Edit()
        if fields["title"] != nil { edit.title = try Self.title(fields["title"]) }
        edit.body = fields["body"].map { $0.replacing("\r\n", with: "\n") }
        if let due = fields["due"] {
            edit.due = .some(try Self.date(due))
            // The date picker has no time: a deadline's time of day stays with its new day.
            if case .id(let id) = task { edit.dueTime = try live.current().task(id)?.dueTime }
        }
        var said: [String] = []
        if edit.title != nil || edit.body != nil || edit.due != nil {
            said.append(sentences.edited(try session.edit(task, edit)))
        }
        if let typed = fields["assignees"] {
            let board = try live.current()
            guard case .id(let id) = task, let current = board.task(id) else { return said.joined(separator: " ") }
            let wanted = typed.split(separator: ",").map { $0.trimmingSpaces }.filter { !$0.isEmpty }
            let adding = wanted.filter { !current.assignees.contains($0) }
            let removing = current.assignees.filter { !wanted.contains($0) }
            if !adding.isEmpty || !removing.isEmpty {
                said.append(sentences.edited(try session.assign(task, adding: adding, removing: removing)))
            }
        }
        return said.joined(separator: " ")
    }

    private func resolve(_ fields: [String: String], _ sentences: Sentences, _ session: BoardSession) throws -> String {
        guard let id = fields["id"].flatMap(TaskID.init), let field = fields["field"],
            let choice = fields["choice"].flatMap(Int.init)
        else { throw WebRefusal.noSuchTask }
        // The choice is an index into the choices the page showed; the
        // board may have changed since, so the field must match too.
        let board = try live.current()
        let choices = board.task(id).map(ConflictChoice.all) ?? []
        guard choices.indices.contains(choice), choices[choice].field == field else { throw WebRefusal.noSuchTask }
        return sentences.resolved(try session.resolve(id, field: field, value: choices[choice].value))
    }

    /// The fields the reader changed from a value (`was.FIELD`) that someone
    /// else has changed since, to another value than the reader's: each
    /// with theirs and the reader's.
    static func lostRace(_ task: BoardTask, _ fields: [String: String]) -> [(field: String, theirs: String, mine: String)] {
        let now: [String: String] = [
            "title": task.title, "body": task.body, "due": task.due?.description ?? "",
            "assignees": task.assignees.joined(separator: ", "),
        ]
        return ["title", "body", "due", "assignees"].compactMap { field in
            guard let was = fields["was." + field], let mine = fields[field], let theirs = now[field] else { return nil }
            let same = { (a: String, b: String) in a.trimmingWhiteSpace() == b.trimmingWhiteSpace() }
            guard !same(theirs, was), !same(theirs, mine) else { return nil }
            return (field, theirs, mine)
        }
    }

    /// A title as typed in a form: one line, not empty.
    static func title(_ typed: String?) throws -> String {
        let title = (typed ?? "").trimmingWhiteSpace()
        guard !title.isEmpty else { throw WebRefusal.noTitle }
        return title
    }

    /// A date from the browser's date picker (`2026-12-01`), or none.
    static func date(_ typed: String?) throws -> CivilDate? {
        guard let typed, !typed.isEmpty else { return nil }
        guard let date = CivilDate(iso: typed) else { throw WebRefusal.badDate(typed) }
        return date
    }

    /// Each field of a lost race with both values, as the race dialog lists them.
    func race(_ lost: [(field: String, theirs: String, mine: String)], _ reader: WebReader) -> String {
        let l = reader.localizer
        func value(_ text: String, _ field: String) -> String {
            switch field {
            case "due":
                return FieldNames.value(text.isEmpty ? .null : .string(text), of: field, localizer: l, style: reader.style)
            case "assignees": return l.quoted(TextSafety.escaped(text))
            default: return FieldNames.value(.string(text), of: field, localizer: l, style: reader.style)
            }
        }
        return lost.map { entry in
            let label = entry.field == "assignees" ? l.string(.boardFormAssignees) : FieldNames.label(entry.field, l)
            let line = l.string(
                .webRaceValue, .text(label), .text(value(entry.theirs, entry.field)), .text(value(entry.mine, entry.field)))
            return "<li>" + HTML.text(line) + "</li>"
        }.joined()
    }

    /// An error said as the terminal says it (without `pm: error:`).
    func describe(_ error: Error, _ reader: WebReader) -> String {
        let l = reader.localizer
        switch error {
        case WebRefusal.noTitle: return l.string(.webNoTitle)
        case WebRefusal.badDate(let typed): return l.string(.webBadDue, .text(TextSafety.escaped(typed)))
        case WebRefusal.noSuchTask, WebRefusal.unknownAction: return l.string(.webNotFound)
        default:
            return ErrorMessages.lines(for: error, localizer: l, style: reader.style, reader: nil).joined(separator: " ")
        }
    }
}

/// Why the web board refused a request before any use case ran.
enum WebRefusal: Error {
    case noTitle
    case badDate(String)
    case noSuchTask
    case unknownAction
    /// An edit whose fields someone else changed meanwhile: field, their value, the reader's.
    case lostRace([(field: String, theirs: String, mine: String)])
}

/// JSON for the script: an object of strings.
enum JSONText {
    /// `object` (an answer's JSON) with a `race` member added.
    static func withRace(_ object: [UInt8], _ race: String) -> String {
        var text = String(decoding: object, as: UTF8.self)
        guard text.hasSuffix("}") else { return text }
        text.removeLast()
        return text + "," + string("race") + ":" + string(race) + "}"
    }

    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { string($0.0) + ":" + string($0.1) }.joined(separator: ",") + "}"
    }

    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // `<` too, so that no `</script>` could ever close anything.
            case "<": out += "\\u003c"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
