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
    /// When the remote was first found unreachable in the spell that the
    /// last attempt belongs to: "offline since" stays when it began, while
    /// the board and `pm sync --watch` keep trying.
    public var offlineSince: String?
    /// When this copy went offline (the first failed attempt in a row), if
    /// its last attempt failed.
    public var wentOffline: String? { lastAttemptOffline ? offlineSince ?? lastAttempt : nil }
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
    /// For each replica in ``segments``, the bytes its segments there had
    /// on the remote: segments never change, so other bytes mean a sync
    /// tool or a backup put back an older or shorter one.
    public var sizes: [String: Int] = [:]
    /// A publication under way, written just before it: a sync killed once
    /// its files reached the remote (a push that landed) is known for what
    /// it was, so the changes it sent are not counted as waiting.
    public var publishing: Publishing?
    /// The replicas this copy has synced as (one per signing key it had):
    /// a key lost or damaged makes a new replica, and what the old one made
    /// and never sent is still this copy's own to send, not "passed on".
    public var replicas: [String] = []
    /// The remote this one replaced (`pm remote add` of another), until
    /// the first sync with the new one: what it passes on then came
    /// through the old remote, and is said so.
    public var previousRemote: String?
    /// How many of the log's events had been synced with the previous remote
    /// when it was replaced: what is passed on from among them came through
    /// it; what lies after them reached this copy another way (`pm merge`).
    public var previousSyncedEvents: Int?

    public init(remote: String? = nil) { self.remote = remote }

    /// What the state becomes (``SyncState/syncedEvents``,
    /// ``SyncState/syncedLength``, ``SyncState/syncedLast``,
    /// ``SyncState/segments``) once `files` are on the remote.
    public struct Publishing: Equatable, Sendable {
        public var events: Int
        public var length: Int
        public var last: String?
        public var segments: [String: NumberSet]
        /// The files it publishes, by their names on the remote.
        public var files: [String]

        public init(events: Int, length: Int, last: String?, segments: [String: NumberSet], files: [String]) {
            (self.events, self.length, self.last, self.segments, self.files) = (events, length, last, segments, files)
        }
    }

    /// The state once `publishing` is known to have reached the remote.
    public func published(_ publishing: Publishing) -> SyncState {
        var state = self
        (state.syncedEvents, state.syncedLength, state.syncedLast) = (publishing.events, publishing.length, publishing.last)
        // (Sizes of the replicas whose segments changed are taken again.)
        for (key, numbers) in publishing.segments where state.segments[key] != numbers { state.sizes[key] = nil }
        state.segments = publishing.segments
        state.publishing = nil
        return state
    }
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
                case "offlineSince": state.offlineSince = try BoardDecoder.readString(&reader, field: key)
                case "lastAttemptOffline":
                    guard case .bool(let flag) = try reader.readValue() else { throw reader.failure() }
                    state.lastAttemptOffline = flag
                case "syncedEvents": state.syncedEvents = max(0, try reader.readInt(field: key))
                case "syncedLength": state.syncedLength = max(0, try reader.readInt(field: key))
                case "syncedLast": state.syncedLast = try BoardDecoder.readString(&reader, field: key)
                case "segments": state.segments = try Self.readSegments(&reader)
                case "sizes":
                    try reader.readObject { key, reader in state.sizes[key] = max(0, try reader.readInt(field: "sizes")) }
                case "publishing": state.publishing = try Self.readPublishing(&reader)
                case "previousRemote": state.previousRemote = try BoardDecoder.readString(&reader, field: key)
                case "previousSyncedEvents": state.previousSyncedEvents = max(0, try reader.readInt(field: key))
                case "replicas":
                    guard case .array(let ids) = try reader.readValue() else { throw reader.failure() }
                    state.replicas = ids.compactMap { value in
                        guard case .string(let text) = value, TaskID(text) != nil else { return nil }
                        return text
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
        var fields: [(String, (inout JSONWriter) -> Void)] = [
            ("lastAttemptOffline", { $0.raw(state.lastAttemptOffline ? "true" : "false") }),
            ("syncedEvents", { $0.raw(String(state.syncedEvents)) }),
            ("syncedLength", { $0.raw(String(state.syncedLength)) }),
        ]
        if let remote = state.remote { fields.append(("remote", { $0.string(remote) })) }
        if let previous = state.previousRemote { fields.append(("previousRemote", { $0.string(previous) })) }
        if let count = state.previousSyncedEvents { fields.append(("previousSyncedEvents", { $0.raw(String(count)) })) }
        if let last = state.syncedLast { fields.append(("syncedLast", { $0.string(last) })) }
        if let kind = state.remoteKind { fields.append(("kind", { $0.string(kind) })) }
        if let since = state.offlineSince { fields.append(("offlineSince", { $0.string(since) })) }
        if !state.segments.isEmpty { fields.append(("segments", Self.segmentsWriter(state.segments, level: 1))) }
        if !state.sizes.isEmpty {
            let sizes = state.sizes.sorted { $0.key < $1.key }
            fields.append(("sizes", { $0.object(sizes.map { entry in (entry.key, { $0.raw(String(entry.value)) }) }, level: 1) }))
        }
        if let publishing = state.publishing {
            fields.append(
                (
                    "publishing",
                    { writer in
                        var members: [(String, (inout JSONWriter) -> Void)] = [
                            ("events", { $0.raw(String(publishing.events)) }),
                            (
                                "files",
                                { w in w.array(count: publishing.files.count, level: 2) { $0.string(publishing.files[$1]) } }
                            ),
                            ("length", { $0.raw(String(publishing.length)) }),
                            ("segments", Self.segmentsWriter(publishing.segments, level: 2)),
                        ]
                        if let last = publishing.last { members.append(("last", { $0.string(last) })) }
                        writer.object(members.sorted { $0.0 < $1.0 }, level: 1)
                    }
                ))
        }
        if !state.replicas.isEmpty {
            let ids = state.replicas.sorted()
            fields.append(("replicas", { w in w.array(count: ids.count, level: 1) { $0.string(ids[$1]) } }))
        }
        if let lastSync = state.lastSync { fields.append(("lastSync", { $0.string(lastSync) })) }
        if let lastAttempt = state.lastAttempt { fields.append(("lastAttempt", { $0.string(lastAttempt) })) }
        var writer = JSONWriter()
        writer.object(fields.sorted { $0.0 < $1.0 }, level: 0)
        writer.raw("\n")
        try AtomicFileWriter.saveStateFile(writer, to: path, role: .syncState, fileSystem: fileSystem)
    }

    /// `{"<key>": "1-40,42", …}`.
    static func segmentsWriter(_ segments: [String: NumberSet], level: Int) -> (inout JSONWriter) -> Void {
        let entries = segments.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }
        return { writer in writer.object(entries.map { entry in (entry.key, { $0.string(entry.value.text) }) }, level: level) }
    }

    static func readSegments(_ reader: inout JSONReader) throws -> [String: NumberSet] {
        var segments: [String: NumberSet] = [:]
        try reader.readObject { key, reader in
            guard let numbers = NumberSet(text: try BoardDecoder.readString(&reader, field: "segments")) else {
                throw reader.failure()
            }
            segments[key] = numbers
        }
        return segments
    }

    static func readPublishing(_ reader: inout JSONReader) throws -> SyncState.Publishing {
        var publishing = SyncState.Publishing(events: 0, length: 0, last: nil, segments: [:], files: [])
        try reader.readObject { key, reader in
            switch key {
            case "events": publishing.events = max(0, try reader.readInt(field: key))
            case "length": publishing.length = max(0, try reader.readInt(field: key))
            case "last": publishing.last = try BoardDecoder.readString(&reader, field: key)
            case "segments": publishing.segments = try readSegments(&reader)
            case "files":
                guard case .array(let names) = try reader.readValue() else { throw reader.failure() }
                publishing.files = try names.map { name in
                    guard case .string(let text) = name else { throw reader.failure() }
                    return text
                }
            default: _ = try reader.readValue()
            }
        }
        return publishing
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
