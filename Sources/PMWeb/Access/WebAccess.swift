import PMCore
import PMKit

/// Who may read and change the board through the server (DESIGN.md §16):
/// the one-time token `pm serve` prints is exchanged once for a cookie that
/// names a visitor; every request must name the address served (`Host`,
/// against DNS rebinding); every write must come from the page itself
/// (`Origin`) and carry the visitor's CSRF token.
struct WebAccess {
    /// One browser let in: the person it acts as, and its CSRF token.
    struct Visitor {
        var person: String
        var csrf: String
        /// The hash of the personal link it came in by (nil: the printed one-time link).
        var invite: String?
        /// When it came in, in the order of arrivals.
        var since = 0
    }
    private var entered = 0

    /// The token in the printed URL, until it is used.
    private(set) var entryToken: String?
    private var visitors: [String: Visitor] = [:]
    /// The `Host` values that name this server.
    private(set) var hosts: Set<String> = []
    /// The cookie's name: per port, since browsers share cookies between a host's ports.
    private(set) var cookieName = "pm"
    /// `http://` or `https://`.
    private(set) var scheme = "http://"

    init() {
        entryToken = Self.randomToken()
    }

    /// Starts accepting `Host` values for `address` (an IP literal) and `port`.
    mutating func serve(address: String, port: Int, secure: Bool = false) {
        scheme = secure ? "https://" : "http://"
        let host = address.contains(":") ? "[" + address + "]" : address
        hosts = [host + ":" + String(port)]
        if address.hasPrefix("127.") || address == "::1" { hosts.insert("localhost:" + String(port)) }
        cookieName = "pm_" + String(port)
    }

    /// Whether the request names this server (exactly; a port is required).
    func hostAllowed(_ host: String?) -> Bool {
        guard let host else { return false }
        return hosts.contains(host.lowercased())
    }

    /// Whether a write comes from this server's own page: its `Origin` is
    /// this server's scheme and the host it was sent to, and the browser does not say
    /// it came from elsewhere.
    func sameOrigin(_ request: WebRequest) -> Bool {
        guard let origin = request.headers["origin"], let host = request.headers["host"], hostAllowed(host) else {
            return false
        }
        if let site = request.headers["sec-fetch-site"], site != "same-origin" { return false }
        return origin.lowercased() == scheme + host.lowercased()
    }

    /// The visitor the request's cookie names.
    func visitor(_ request: WebRequest) -> Visitor? {
        visitorKey(request).flatMap { visitors[$0] }
    }

    /// The cookie's value, when it names a visitor.
    func visitorKey(_ request: WebRequest) -> String? {
        guard let key = request.cookies[cookieName], visitors[key] != nil else { return nil }
        return key
    }

    /// Lets in a browser that opened `token`'s personal link: the new
    /// visitor's cookie value, or nil when no link has that token.
    mutating func enter(invite token: String?, in list: InviteList) -> String? {
        guard let token, token.count == 64, let invite = list.invite(hash: BoardSession.tokenHash(token)) else { return nil }
        // At most 16 browsers a link: the oldest let in is let go.
        let same = visitors.filter { $0.value.invite == invite.tokenHash }
        if same.count >= 16, let oldest = same.min(by: { $0.value.since < $1.value.since }) { visitors[oldest.key] = nil }
        let key = Self.randomToken()
        entered += 1
        visitors[key] = Visitor(person: invite.name, csrf: Self.randomToken(), invite: invite.tokenHash, since: entered)
        return key
    }

    /// Forgets the visitors whose link is no longer in `list` (revoked, or
    /// replaced by a new one); returns their cookie values.
    mutating func keepOnly(_ list: InviteList) -> [String] {
        let valid = Set(list.invites.map(\.tokenHash))
        let gone = visitors.filter { entry in entry.value.invite.map { !valid.contains($0) } ?? false }.map(\.key)
        for key in gone { visitors[key] = nil }
        return gone
    }

    /// Spends the entry token, if `token` is it: the new visitor's cookie value.
    mutating func enter(with token: String?, as person: String) -> String? {
        guard let token, let expected = entryToken, Self.same(token, expected) else { return nil }
        entryToken = nil
        let key = Self.randomToken()
        visitors[key] = Visitor(person: person, csrf: Self.randomToken())
        return key
    }

    /// Whether `given` is the visitor's CSRF token.
    func csrfMatches(_ given: String?, for visitor: Visitor) -> Bool {
        guard let given else { return false }
        return Self.same(given, visitor.csrf)
    }

    /// The cookie that lets the visitor in: HttpOnly (no script reads it),
    /// SameSite=Strict (no other site's page sends it).
    func cookie(_ key: String) -> String {
        cookieName + "=" + key + "; Path=/; HttpOnly; SameSite=Strict" + (scheme == "https://" ? "; Secure" : "")
    }

    /// 32 random bytes in hex.
    static func randomToken() -> String { BoardSession.randomToken() }

    /// Compares two tokens in time that does not depend on where they differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
