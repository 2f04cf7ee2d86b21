import Dispatch
import PMCore
import PMKit
import PMLocalization
import PMViews

/// The web board: routes, who may do what, and the use cases through the
/// same ``BoardSession`` every front end uses. Everything it holds is used
/// on one serial queue (board changes take the board's lock and write
/// files: one at a time, off the network thread).
final class WebApp: WebResponder, @unchecked Sendable {
    let launch: ServeLaunch
    let queue = DispatchQueue(label: "pm.serve")
    var access = WebAccess()
    let readers: WebReaders
    let live: LiveBoard
    private var timers: [DispatchSourceTimer] = []
    /// A sync is under way (one at a time).
    var syncing = false
    /// The personal links, read again when their file changes.
    var invites = InviteList()
    private var invitesStamp: FileStamp?
    /// The sessions of the people let in by a personal link, by name.
    var sessions: [String: BoardSession] = [:]
    /// The parts last made for each reader and filter, and the board's version they show.
    var partsCache: [String: (version: Int, parts: [(String, String)])] = [:]
    /// `GET /board`'s answers last made, as sent (gzipped or not).
    var answerCache: [String: (version: Int, body: [UInt8])] = [:]
    private var port = 0

    /// Headers on every answer: nothing from elsewhere runs, frames, or learns the URL.
    static let securityHeaders: [(String, String)] = [
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
                + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"),
        ("Cross-Origin-Opener-Policy", "same-origin"), ("Cross-Origin-Resource-Policy", "same-origin"),
        ("Cache-Control", "no-store"),
    ]

    init(launch: ServeLaunch) {
        self.launch = launch
        readers = WebReaders(fallbackZone: launch.session.environment.timeZone)
        live = LiveBoard(session: launch.session)
    }

    /// Starts answering for `port` and watching the board.
    func start(port: Int) {
        queue.sync {
            self.port = port
            access.serve(address: launch.address, port: port, secure: launch.tls != nil)
            recordAddress()
            reloadInvites()
            timers = [
                every(milliseconds: 200) { app in
                    app.live.poll()
                    app.reloadInvites()
                },
                every(milliseconds: 15_000) { $0.live.heartbeat() },
            ]
            if launch.syncIntervalMilliseconds > 0, (try? launch.session.requireRemote()) != nil {
                timers.append(every(milliseconds: launch.syncIntervalMilliseconds) { app in app.syncInBackground() })
            }
        }
    }

    private func every(milliseconds: Int, _ body: @escaping (WebApp) -> Void) -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(milliseconds), repeating: .milliseconds(milliseconds))
        timer.setEventHandler { [unowned self] in body(self) }
        timer.resume()
        return timer
    }

    /// Stops watching and closes every page's stream.
    func stop() {
        queue.sync {
            for timer in timers { timer.cancel() }
            timers = []
            live.closeAll()
        }
    }

    /// The one URL `pm serve` prints: the address and the one-time token.
    func entryURL() -> String {
        queue.sync {
            let host = launch.address.contains(":") ? "[" + launch.address + "]" : launch.address
            return access.scheme + host + ":" + String(port) + "/?token=" + (access.entryToken ?? "")
        }
    }

    func respond(to request: WebRequest, reply: @escaping @Sendable (WebAnswer) -> Void) {
        queue.async {
            var answer = self.answer(request)
            if case .response(var response) = answer {
                response.headers += Self.securityHeaders
                Self.compress(&response, for: request)
                answer = .response(response)
            }
            reply(answer)
        }
    }

    private func answer(_ request: WebRequest) -> WebAnswer {
        let reader = readers.reader(for: request, cookieLanguage: request.cookies["pm_language"])
        // DNS rebinding: a page elsewhere that made its name point here is
        // refused before anything else is read.
        guard access.hostAllowed(request.headers["host"]) else { return .response(refusal(403, reader)) }
        switch (request.method, request.path) {
        case ("GET", "/static/app.js"): return .response(asset(PageScript.source, type: "text/javascript"))
        case ("GET", "/static/app.css"): return .response(asset(PageStyle.source, type: "text/css"))
        case ("GET", "/favicon.ico"): return .response(WebResponse(status: 204))
        // A link is opened by a person, never by another site's page: else
        // any page could log a browser in as whoever the link names.
        case ("GET", "/") where request.query["token"] != nil || request.query["invite"] != nil:
            if let site = request.headers["sec-fetch-site"], site != "none", site != "same-origin" {
                return .response(denied(reader))
            }
            return .response(request.query["token"] != nil ? enter(request, reader) : enterByInvite(request, reader))
        default: break
        }
        // A revoked link stops at once, not at the next look at the list.
        if access.visitor(request)?.invite != nil { reloadInvites() }
        guard let visitor = access.visitor(request) else { return .response(denied(reader)) }
        switch (request.method, request.path) {
        case ("GET", "/"): return .response(page(request, reader, visitor))
        case ("GET", "/board"): return .response(boardParts(request, reader, visitor))
        case ("GET", "/events"): return stream(visitor: access.visitorKey(request) ?? "")
        case ("POST", let path) where path.hasPrefix("/api/"):
            return .response(write(String(path.dropFirst(5)), request, reader, visitor))
        case ("GET", _), ("POST", _): return .response(.text(reader.localizer.string(.webNotFound), status: 404))
        default: return .response(.text(reader.localizer.string(.webNotFound), status: 405))
        }
    }

    /// A page, its parts, its script and style go gzipped to a browser that
    /// takes it. The full page is never made from what the request says (the
    /// filters apply in its parts), so no secret in it (the CSRF token) is
    /// compressed beside text an attacker chose (BREACH).
    static func compress(_ response: inout WebResponse, for request: WebRequest) {
        guard response.body.count > 1024, !response.headers.contains(where: { $0.0 == "Content-Encoding" }),
            Gzip.accepted(request.headers["accept-encoding"]),
            let packed = Gzip.compress(response.body)
        else { return }
        response.body = packed
        response.headers += [("Content-Encoding", "gzip"), ("Vary", "Accept-Encoding")]
    }

    private func asset(_ text: String, type: String) -> WebResponse {
        WebResponse(status: 200, contentType: type + "; charset=utf-8", body: Array(text.utf8))
    }

    /// The printed link, once: the browser gets its cookie, and the token
    /// leaves the address bar (and the history) at once.
    private func enter(_ request: WebRequest, _ reader: WebReader) -> WebResponse {
        guard let key = access.enter(with: request.query["token"], as: launch.session.environment.user) else {
            return denied(reader)
        }
        var response = WebResponse.redirect(to: "/")
        response.headers.append(("Set-Cookie", access.cookie(key)))
        return response
    }

    /// A personal link: its person's browser gets its cookie (each browser
    /// that opens the link is let in, as long as it is not revoked).
    private func enterByInvite(_ request: WebRequest, _ reader: WebReader) -> WebResponse {
        reloadInvites()
        guard let key = access.enter(invite: request.query["invite"], in: invites) else { return denied(reader) }
        var response = WebResponse.redirect(to: "/")
        response.headers.append(("Set-Cookie", access.cookie(key)))
        return response
    }

    /// Beyond this machine, where the server listens (`https://host:port`)
    /// is kept with the links, so that `pm serve invite` names it.
    private func recordAddress() {
        guard !launch.address.hasPrefix("127."), launch.address != "::1" else { return }
        let store = launch.session.inviteStore()
        guard var list = try? store.load() else { return }
        let host = launch.address.contains(":") ? "[" + launch.address + "]" : launch.address
        list.address = access.scheme + host + ":" + String(port)
        try? store.save(list)
    }

    /// Reads the personal links again when their file changed; a revoked
    /// link's browsers are let go at once, their live streams closed.
    func reloadInvites() {
        let store = launch.session.inviteStore()
        let stamp = FileStamp(store.path)
        guard stamp != invitesStamp || invitesStamp == nil else { return }
        invitesStamp = stamp
        // A file that cannot be read lets nobody in by a link.
        invites = (try? store.load()) ?? InviteList()
        live.close(visitors: access.keepOnly(invites))
    }

    /// The page for a browser without a valid link.
    func denied(_ reader: WebReader) -> WebResponse {
        let l = reader.localizer
        let html = """
            <!DOCTYPE html>
            <html lang="\(reader.languageTag)"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTML.text(l.string(.webTitle)))</title><link rel="stylesheet" href="/static/app.css"></head>
            <body><main><h1>\(HTML.text(l.string(.webTitle)))</h1><p>\(HTML.text(l.string(.webDenied)))</p></main></body></html>

            """
        return .html(html, status: 403)
    }

    func refusal(_ status: Int, _ reader: WebReader) -> WebResponse {
        .text(reader.localizer.string(.webRefused), status: status)
    }

    /// A page's live updates: an event each time the board changes.
    private func stream(visitor: String) -> WebAnswer {
        var head = WebResponse(status: 200, contentType: "text/event-stream; charset=utf-8")
        head.headers += Self.securityHeaders
        return .stream(head) { [unowned self] sink in
            queue.async {
                let key = self.live.add(sink, visitor: visitor)
                sink.whenClosed { [unowned self] in queue.async { self.live.remove(key) } }
            }
        }
    }
}
