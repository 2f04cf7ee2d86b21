/// The personal links to a board's web board (`pm serve invite`, DESIGN.md
/// §16), kept in the state folder of the person who serves it: who each
/// link is for and the SHA-256 of its token (the link is shown once and
/// never stored: a copy of this file lets nobody in), and where the server
/// last listened for other machines (the address the links name).
public struct InviteList: Equatable, Sendable {
    /// One person's link.
    public struct Invite: Equatable, Sendable {
        /// Who the link acts as (their edits are authored so).
        public var name: String
        /// The SHA-256 of the link's token, in hex.
        public var tokenHash: String
        /// When it was made (ISO 8601).
        public var created: String

        public init(name: String, tokenHash: String, created: String) {
            self.name = name
            self.tokenHash = tokenHash
            self.created = created
        }
    }

    public var invites: [Invite] = []
    /// Where `pm serve --listen` last listened, as a URL's origin
    /// (`https://192.168.1.20:8080`): the links name it.
    public var address: String?

    public init(invites: [Invite] = [], address: String? = nil) {
        self.invites = invites
        self.address = address
    }

    /// The invite whose token hashes to `hash`.
    public func invite(hash: String) -> Invite? { invites.first { $0.tokenHash == hash } }
}

/// Where a user's invite list for one board is kept.
public struct InviteStore: Sendable {
    public let path: String
    let fileSystem: FileSystem

    /// `user`'s invites to the board at `boardKey` (its real path).
    public init(stateDirectory: String, boardKey: String, user: String, fileSystem: FileSystem = PosixFileSystem()) {
        path = stateDirectory + "/serve-" + StableHash.hex(Array(boardKey.utf8)) + "-" + UndoStore.fileNamePart(user) + ".json"
        self.fileSystem = fileSystem
    }

    /// The list; empty when there is none yet.
    /// - Throws: ``PMError/stateCorrupt(path:line:column:reason:file:)``, ``PMError/unsafeFile(path:)``.
    public func load() throws -> InviteList {
        let bytes: [UInt8]
        do {
            bytes = try fileSystem.readFileNoFollow(path)
        } catch let error as SystemCallError {
            switch error.code {
            case 2, 20: return InviteList()
            case 40, 21: throw PMError.unsafeFile(path: path)
            default: throw PMError.readFailed(path: path, error)
            }
        }
        return try BoardDecoder.decodeStateFile(bytes, path: path, file: .invites) { reader in
            var list = InviteList()
            try reader.readObject { key, reader in
                switch key {
                case "address": list.address = try BoardDecoder.readString(&reader, field: key)
                case "invites":
                    guard case .array(let entries) = try reader.readValue() else { throw reader.failure() }
                    for entry in entries {
                        guard case .object(let fields) = entry, case .string(let name)? = fields["name"],
                            case .string(let hash)? = fields["token"], case .string(let created)? = fields["created"]
                        else { throw reader.failure() }
                        list.invites.append(.init(name: name, tokenHash: hash, created: created))
                    }
                default: _ = try reader.readValue()
                }
            }
            return list
        }
    }

    /// Saves the list atomically, readable by its owner only.
    /// - Throws: ``PMError/saveFailed(path:_:file:)``.
    public func save(_ list: InviteList) throws {
        var fields: [(String, (inout JSONWriter) -> Void)] = [
            (
                "invites",
                { writer in
                    writer.array(count: list.invites.count, level: 1) { writer, index in
                        let invite = list.invites[index]
                        writer.object(
                            [
                                ("name", { $0.string(invite.name) }), ("token", { $0.string(invite.tokenHash) }),
                                ("created", { $0.string(invite.created) }),
                            ], level: 2)
                    }
                }
            )
        ]
        if let address = list.address { fields.insert(("address", { $0.string(address) }), at: 0) }
        var writer = JSONWriter()
        writer.object(fields, level: 0)
        writer.raw("\n")
        try AtomicFileWriter.saveStateFile(writer, to: path, role: .invites, fileSystem: fileSystem)
    }
}
