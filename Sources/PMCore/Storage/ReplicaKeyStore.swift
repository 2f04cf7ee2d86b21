import PMICU
import PMSign

/// The private key one user's copy of a board signs its events with
/// (``EventSeal``), in their state directory and readable by them alone
/// (`0600`): never beside the board, so a copy of the board handed to a
/// teammate (`pm merge`, a sync tool's conflicted copy) never carries it.
///
/// One key per machine, user and board place, as replicas were before keys:
/// a home directory shared by two machines gives each its own. Made on the
/// first change, never on a read. A key file that is damaged is put aside
/// (never deleted) and a new key made: the copy becomes a new replica, and
/// every event already signed stays valid.
public struct ReplicaKeyStore: Sendable {
    public let path: String
    let fileSystem: FileSystem

    public init(
        stateDirectory: String, host: String, boardKey: String, user: String, fileSystem: FileSystem = PosixFileSystem()
    ) {
        path =
            stateDirectory + "/key-" + StableHash.hex(Array("\(host)\u{0}\(boardKey)".utf8)) + "-"
            + UndoStore.fileNamePart(user)
        self.fileSystem = fileSystem
    }

    /// Throws ``PMError/unsafeFile(path:)`` when something other than a
    /// file is where the key belongs (a link: it is never followed): the
    /// copy would sign nothing, and say nothing of it (issue 43, item 16).
    public func checkSafe() throws {
        if let status = try? fileSystem.linkStatus(path), status.kind != .regular {
            throw PMError.unsafeFile(path: path)
        }
    }

    /// The signer, when this copy has a key; nil when it has none yet or its
    /// file is not a key (a link, a damaged file: see ``signer(creating:)``).
    public func existing() -> EventSigner? {
        guard let bytes = try? fileSystem.readFileNoFollow(path) else { return nil }
        return Self.signer(from: bytes)
    }

    /// The signer, made (with a new key) when there is none. Nil only when no
    /// key can be written (a read-only state directory): the copy then writes
    /// unsigned events under its name-based id, as before keys.
    public func signer(creating: Bool = true) -> EventSigner? {
        if let signer = existing() { return signer }
        guard creating else { return nil }
        // A damaged file (not a link: that is never followed nor moved) is kept aside.
        if let status = try? fileSystem.linkStatus(path), status.kind == .regular {
            let stamp = String(UInt64.random(in: 1...UInt64.max), radix: 16)
            try? fileSystem.rename(path, to: path + ".damaged-" + stamp)
        }
        let directory = BoardStore.directory(of: path)
        guard (try? fileSystem.createDirectories(directory)) != nil else { return nil }
        let seed = Signing.newSeed()
        let temporary = path + ".new-" + String(fileSystem.processID) + "-" + String(UInt64.random(in: 1...UInt64.max), radix: 16)
        do {
            let descriptor = try fileSystem.createExclusive(temporary, mode: 0o600)
            defer { try? fileSystem.close(descriptor) }
            try fileSystem.write(descriptor, Array((Base64URL.encode(seed) + "\n").utf8)[...])
            try fileSystem.sync(descriptor)
        } catch {
            try? fileSystem.remove(temporary)
            return nil
        }
        defer { try? fileSystem.remove(temporary) }
        // Two first changes at once: the first key in place is the one both use.
        let name = String(path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...])
        try? fileSystem.moveNoReplace(temporary, intoDirectory: directory, name: name)
        try? fileSystem.syncDirectory(directory)
        return existing()
    }

    static func signer(from bytes: [UInt8]) -> EventSigner? {
        var text = bytes
        if text.last == 0x0A { text.removeLast() }
        guard text.count == 43, let seed = Base64URL.decode(String(decoding: text, as: UTF8.self)) else { return nil }
        return EventSigner(seed: seed)
    }
}
