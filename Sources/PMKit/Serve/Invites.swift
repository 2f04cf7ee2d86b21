import PMCore
import PMICU

/// The people the web board serves beyond this machine (DESIGN.md §16):
/// each has a personal link, their own undo history, news mark and signing
/// key, and their changes are authored as them.
extension BoardSession {
    /// Where this user keeps the links to this board's web board.
    public func inviteStore() -> InviteStore {
        InviteStore(stateDirectory: environment.stateDirectory, boardKey: boardKey(), user: environment.user)
    }

    /// Makes a personal link for `name` (a new one replaces theirs: the old
    /// link stops working). Returns the link's token, shown once.
    /// - Throws: ``PMError/badAssignee(_:)`` for a name nobody could be assigned by.
    public func invite(_ name: String) throws -> (name: String, token: String) {
        let person = try Assignees.validName(name)
        let store = inviteStore()
        var list = try store.load()
        // A link in a name that reads like another's would be taken for theirs
        // in the history (`jі-woo` with a Cyrillic і, `Ji-Woo`).
        let others = Set(list.invites.map(\.name) + [environment.user]).subtracting([person])
        if let like = others.sorted().first(where: { $0.lowercased() == person.lowercased() })
            ?? ICUConfusables.lookalikes(of: [person], among: others).first?.like
        {
            throw SessionError.inviteLookalike(name: person, like: like)
        }
        let token = Self.randomToken()
        list.invites.removeAll { $0.name == person }
        list.invites.append(.init(name: person, tokenHash: Self.tokenHash(token), created: now))
        try store.save(list)
        return (person, token)
    }

    /// Revokes `name`'s link; false when they had none.
    public func revokeInvite(_ name: String) throws -> Bool {
        let store = inviteStore()
        var list = try store.load()
        let before = list.invites.count
        list.invites.removeAll { $0.name == name || $0.name == (try? Assignees.validName(name)) }
        guard list.invites.count != before else { return false }
        try store.save(list)
        return true
    }

    /// The session `person` acts through on this board, served by this
    /// user: the same board and settings; their own name on their changes,
    /// their own undo history, news mark and signing key (kept in this
    /// user's state folder; the server's syncs pass their changes on).
    public func acting(as person: String) -> BoardSession {
        guard person != environment.user else { return self }
        var world = environment
        world.user = person
        let session = BoardSession(environment: world, settings: settings)
        session.afterChange = afterChange
        return session
    }

    /// What a link's token is kept as: its SHA-256, in hex.
    public static func tokenHash(_ token: String) -> String {
        Digest.sha256(Array(token.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// 32 random bytes in hex.
    public static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
