import PMICU

/// Where one user's copy of a board syncs and how its last sync went
/// (DESIGN.md §5 and §9), in their state directory: `pm list` and
/// `pm status` read it without touching the network.
public struct SyncState: Equatable, Sendable {
    /// The remote (`pm remote add TARGET`): a URL as the user gave it, a
    /// path made absolute from where they typed it.
    public var remote: String?
    /// What it was when added, `git` or `folder` (a folder named `x.git`
    /// stays a folder, a share unmounted later stays a share).
    public var remoteKind: String?
    /// When the last sync finished, ISO 8601 UTC.
    public var lastSync: String?
    /// When the last attempt was, and whether the remote could be reached.
    public var lastAttempt: String?
    public var lastAttemptOffline = false
    /// How much of the local log the remote had at the last sync: changes
    /// made here after it are waiting.
    public var syncedEvents = 0
    public var syncedLength = 0
    /// The id of the log's line that ends there: a log put back from a
    /// backup does not have it, and is then synced from its start.
    public var syncedLast: String?
    /// For each replica (by id), the numbers of its segments on the remote
    /// that are already in the local log: a sync does not read them again.
    public var segments: [String: NumberSet] = [:]

    public init(remote: String? = nil) { self.remote = remote }
}

/// Reads and saves a ``SyncState``.
public struct SyncStateStore: Sendable {
    public let path: String
    let fileSystem: FileSystem

    /// The state of `user`'s copy of the board at `boardKey` (its real path).
    public init(stateDirectory: String, boardKey: String, user: String, fileSystem: FileSystem = PosixFileSystem()) {
        path =
            stateDirectory + "/sync-" + StableHash.hex(Array(boardKey.utf8)) + "-" + UndoStore.fileNamePart(user) + ".json"
        self.fileSystem = fileSystem
    }

    /// Where pm keeps its clone of a git remote for this user's copy of this board.
    public static func gitCache(stateDirectory: String, boardKey: String, url: String, user: String) -> String {
        stateDirectory + "/git-" + StableHash.hex(Array((boardKey + "\u{0}" + url).utf8)) + "-" + UndoStore.fileNamePart(user)
    }

    /// The state; empty when there is none yet.
    /// - Throws: ``PMError/stateCorrupt(path:line:column:reason:file:)``, ``PMError/unsafeFile(path:)``.
    public func load() throws -> SyncState {
        let bytes: [UInt8]
        do {
            bytes = try fileSystem.readFileNoFollow(path)
        } catch let error as SystemCallError {
            switch error.code {
            case 2, 20: return SyncState()
            case 40, 21: throw PMError.unsafeFile(path: path)
            default: throw PMError.readFailed(path: path, error)
            }
        }
        return try BoardDecoder.decodeStateFile(bytes, path: path, file: .syncState) { reader in
            var state = SyncState()
            try reader.readObject { key, reader in
                switch key {
                case "remote": state.remote = try BoardDecoder.readString(&reader, field: key)
                case "kind": state.remoteKind = try BoardDecoder.readString(&reader, field: key)
                case "lastSync": state.lastSync = try BoardDecoder.readString(&reader, field: key)
                case "lastAttempt": state.lastAttempt = try BoardDecoder.readString(&reader, field: key)
                case "lastAttemptOffline":
                    guard case .bool(let flag) = try reader.readValue() else { throw reader.failure() }
                    state.lastAttemptOffline = flag
                case "syncedEvents": state.syncedEvents = max(0, try reader.readInt(field: key))
                case "syncedLength": state.syncedLength = max(0, try reader.readInt(field: key))
                case "syncedLast": state.syncedLast = try BoardDecoder.readString(&reader, field: key)
                case "segments":
                    try reader.readObject { replica, reader in
                        guard let numbers = NumberSet(text: try BoardDecoder.readString(&reader, field: key)) else {
                            throw reader.failure()
                        }
                        state.segments[replica] = numbers
                    }
                default: _ = try reader.readValue()
                }
            }
            return state
        }
    }

    /// Saves the state atomically.
    /// - Throws: ``PMError/saveFailed(path:_:file:)``.
    public func save(_ state: SyncState) throws {
        let directory = BoardStore.directory(of: path)
        do {
            try fileSystem.createDirectories(directory)
        } catch let error as SystemCallError {
            throw PMError.saveFailed(path: directory, error, file: .syncState)
        }
        var fields: [(String, (inout JSONWriter) -> Void)] = [
            ("lastAttemptOffline", { $0.raw(state.lastAttemptOffline ? "true" : "false") }),
            ("syncedEvents", { $0.raw(String(state.syncedEvents)) }),
            ("syncedLength", { $0.raw(String(state.syncedLength)) }),
        ]
        if let remote = state.remote { fields.append(("remote", { $0.string(remote) })) }
        if let last = state.syncedLast { fields.append(("syncedLast", { $0.string(last) })) }
        if let kind = state.remoteKind { fields.append(("kind", { $0.string(kind) })) }
        if !state.segments.isEmpty {
            let segments = state.segments.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }
            fields.append(
                (
                    "segments",
                    { writer in writer.object(segments.map { entry in (entry.key, { $0.string(entry.value.text) }) }, level: 1) }
                ))
        }
        if let lastSync = state.lastSync { fields.append(("lastSync", { $0.string(lastSync) })) }
        if let lastAttempt = state.lastAttempt { fields.append(("lastAttempt", { $0.string(lastAttempt) })) }
        var writer = JSONWriter()
        writer.object(fields.sorted { $0.0 < $1.0 }, level: 0)
        writer.raw("\n")
        var atomic = AtomicFileWriter(fileSystem: fileSystem)
        atomic.role = .syncState
        atomic.removeStaleTemporaryFiles(of: path)
        _ = try atomic.write(writer.finishedChunks(), to: path, mode: 0o600)
    }

    /// Removes the state (`pm remote remove`).
    public func remove() throws {
        do {
            try fileSystem.remove(path)
        } catch let error as SystemCallError where error.code != 2 {
            throw PMError.saveFailed(path: path, error, file: .syncState)
        }
    }
}
