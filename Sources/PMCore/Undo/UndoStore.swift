import PMICU

/// Keeps one user's undo and redo stacks for one board in their state
/// directory (DESIGN.md §5), so that they survive between runs and machines
/// sharing the board file do not share them.
///
/// The file holds the stacks as they were before the last command and that
/// command's step as *pending*. It is saved before the board; on load the
/// step counts only if its event reached the board. So a kill between the
/// two saves leaves the stacks agreeing with the board, and a change is never
/// missing from its author's stack (RELIABILITY.md).
public struct UndoStore: Sendable {
    /// The state file.
    public let path: String
    let fileSystem: FileSystem

    /// What the file holds.
    public struct Stored: Equatable, Sendable {
        /// The stacks before the pending step.
        public var committed: UndoState
        /// The last command's step, which counts once its event is on the board.
        public var pending: UndoStep?
        /// Where the log ended when the pending step's change began: its
        /// event, if committed, is at or after it (nil in a file saved before
        /// steps knew it).
        public var pendingOffset: Int?

        public init(committed: UndoState = UndoState(), pending: UndoStep? = nil, pendingOffset: Int? = nil) {
            self.committed = committed
            self.pending = pending
            self.pendingOffset = pendingOffset
        }

        /// The stacks as they are for `board`: the pending step applied if its
        /// event is on the board (in its history, or in the log when given,
        /// read from where the step's change began).
        public func resolved(against board: Board, log: EventLogFile? = nil) -> UndoState {
            var state = committed
            guard let pending, let event = pending.eventID else { return state }
            if board.history.contains(eventID: event) || (try? logContains(event, log)) == true { state.apply(pending) }
            return state
        }

        private func logContains(_ event: TaskID, _ log: EventLogFile?) throws -> Bool {
            guard let log else { return false }
            if let pendingOffset { return try log.contains(eventID: event, from: pendingOffset) }
            return try log.contains(eventID: event)
        }
    }

    /// The store for `user` on the board `boardID` found at `boardKey` (its
    /// real path: two copies of one board do not share a stack).
    public init(
        stateDirectory: String, boardID: TaskID, boardKey: String, user: String, fileSystem: FileSystem = PosixFileSystem()
    ) {
        path = Self.stateFile("undo", in: stateDirectory, boardID: boardID, user: user, boardKey: boardKey)
        self.fileSystem = fileSystem
    }

    /// `<directory>/<kind>-<board id>[-<path hash>]-<user>.json`: per-user state
    /// is keyed by board and user (DESIGN.md §5).
    static func stateFile(_ kind: String, in directory: String, boardID: TaskID, user: String, boardKey: String? = nil)
        -> String
    {
        let place = boardKey.map { "-" + StableHash.hex(Array($0.utf8)) } ?? ""
        return directory + "/" + kind + "-" + boardID.rawValue + place + "-" + fileNamePart(user) + ".json"
    }

    /// A user name made safe for a file name on any file system: lowercase
    /// letters, digits, `-`, `_` kept, everything else (capitals too, for
    /// case-insensitive file systems) as `%XX`. A long name keeps its start
    /// and a hash of the whole, so two names never share a file.
    static func fileNamePart(_ user: String) -> String {
        var result = ""
        for byte in user.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"),
                UInt8(ascii: "_"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        guard result.utf8.count > 100 else { return result }
        var start = String(result.prefix(60))
        while let percent = start.suffix(2).firstIndex(of: "%") { start = String(start[..<percent]) }
        return start + "~" + StableHash.hex(Array(user.utf8))
    }

    /// The stacks and the pending step; empty when the file does not exist yet.
    /// - Throws: ``PMError/stateCorrupt(path:line:column:reason:file:)`` when it cannot be read exactly,
    ///   ``PMError/unsafeFile(path:)`` when it is a symlink or not a regular file.
    public func load() throws -> Stored {
        let bytes: [UInt8]
        do {
            bytes = try fileSystem.readFileNoFollow(path)
        } catch let error as SystemCallError {
            switch error.code {
            case 2, 20: return Stored()  // ENOENT, ENOTDIR: no stack yet (saving will say why it cannot)
            case 40, 21: throw PMError.unsafeFile(path: path)  // ELOOP (a symlink), EISDIR (not regular)
            default: throw PMError.readFailed(path: path, error)
            }
        }
        return try BoardDecoder.decodeStateFile(bytes, path: path, file: .undoState) { reader in
            try Self.readStored(&reader)
        }
    }

    /// Saves the stacks atomically. The caller holds the board's lock.
    /// - Throws: ``PMError/saveFailed(path:_:file:)`` naming the undo history.
    public func save(_ stored: Stored) throws {
        var writer = JSONWriter()
        var fields: [(String, (inout JSONWriter) -> Void)] = [
            ("redo", { Self.write(stored.committed.redo, into: &$0, level: 1) }),
            ("undo", { Self.write(stored.committed.undo, into: &$0, level: 1) }),
        ]
        if let pending = stored.pending {
            let (name, transitions) = Self.parts(of: pending)
            fields.insert(
                (
                    "pending",
                    { w in
                        var members: [(String, (inout JSONWriter) -> Void)] = [
                            ("step", { $0.string(name) }), ("transitions", { Self.write(transitions, into: &$0, level: 2) }),
                        ]
                        if let offset = stored.pendingOffset { members.insert(("logOffset", { $0.raw(String(offset)) }), at: 0) }
                        w.object(members, level: 1)
                    }
                ), at: 0)
        }
        writer.object(fields, level: 0)
        writer.raw("\n")
        try AtomicFileWriter.saveStateFile(writer, to: path, role: .undoState, fileSystem: fileSystem)
    }

    // MARK: Format

    private static func parts(of step: UndoStep) -> (String, [Transition]) {
        switch step {
        case .record(let transitions): return ("record", transitions)
        case .undone(let made): return ("undone", made)
        case .redone(let made): return ("redone", made)
        case .skipped: return ("skipped", [])
        }
    }

    private static func write(_ transitions: [Transition], into writer: inout JSONWriter, level: Int) {
        writer.array(count: transitions.count, level: level) { writer, index in
            let transition = transitions[index]
            var members: [(String, (inout JSONWriter) -> Void)] = [
                ("at", { $0.string(transition.at) }),
                ("event", { $0.string(transition.eventID.rawValue) }),
                ("from", { w in Self.write(transition.from, into: &w, level: level + 2) }),
                ("to", { w in Self.write(transition.to, into: &w, level: level + 2) }),
            ]
            if let batch = transition.batch { members.insert(("batch", { $0.string(batch.rawValue) }), at: 1) }
            if let view = transition.view {
                members.append(
                    (
                        "view",
                        { w in
                            w.object(
                                [
                                    ("from", { $0.value(view.from?.value ?? .null, level: level + 3) }),
                                    ("name", { $0.string(view.name) }),
                                    ("to", { $0.value(view.to?.value ?? .null, level: level + 3) }),
                                ], level: level + 2)
                        }
                    ))
            }
            writer.object(members, level: level + 1)
        }
    }

    /// A task as a transition keeps it: its values, never the fold's heads
    /// (undo compares values; the board's own task has the heads).
    private static func readTask(_ reader: inout JSONReader) throws -> BoardTask {
        var task = try BoardDecoder.readTask(&reader)
        task.tracked = true
        return task
    }

    private static func write(_ task: BoardTask?, into writer: inout JSONWriter, level: Int) {
        guard let task else {
            writer.raw("null")
            return
        }
        BoardEncoder.writeTask(task, overdue: nil, into: &writer, level: level)
    }

    private static func readStored(_ reader: inout JSONReader) throws -> Stored {
        var stored = Stored()
        try reader.readObject { key, reader in
            switch key {
            case "undo": stored.committed.undo = try readTransitions(&reader)
            case "redo": stored.committed.redo = try readTransitions(&reader)
            case "pending": (stored.pending, stored.pendingOffset) = try readPending(&reader)
            default: _ = try reader.readValue()
            }
        }
        return stored
    }

    private static func readPending(_ reader: inout JSONReader) throws -> (UndoStep, Int?) {
        var name: String?
        var transitions: [Transition] = []
        var offset: Int?
        try reader.readObject { key, reader in
            switch key {
            case "logOffset": offset = max(0, try reader.readInt(field: key))
            case "step": name = try BoardDecoder.readString(&reader, field: key)
            case "transitions": transitions = try readTransitions(&reader)
            default: _ = try reader.readValue()
            }
        }
        switch (name, transitions.count) {
        case ("record", 1...): return (.record(transitions), offset)
        case ("undone", 1...): return (.undone(made: transitions), offset)
        case ("redone", 1...): return (.redone(made: transitions), offset)
        case ("skipped", 0): return (.skipped, offset)
        default: throw reader.failure()
        }
    }

    private static func readTransitions(_ reader: inout JSONReader) throws -> [Transition] {
        var result: [Transition] = []
        try reader.beginArray()
        var first = true
        while try reader.nextElement(first: &first) {
            var from: BoardTask?
            var to: BoardTask?
            var event: TaskID?
            var at: String?
            var batch: TaskID?
            var view: ViewTransition?
            try reader.readObject { key, reader in
                switch key {
                case "view": view = try readView(&reader)
                case "batch": batch = try BoardDecoder.readID(&reader, field: key)
                case "from": from = try reader.readNullIfPresent() ? nil : try Self.readTask(&reader)
                case "to": to = try reader.readNullIfPresent() ? nil : try Self.readTask(&reader)
                case "event": event = try BoardDecoder.readID(&reader, field: key)
                case "at": at = try BoardDecoder.readString(&reader, field: key)
                default: _ = try reader.readValue()
                }
            }
            guard let event, let at else { throw reader.failure() }
            var transition = Transition(from: from, to: to, eventID: event, at: at, batch: batch)
            transition.view = view
            // One task on both sides, as a change makes: a crafted file must
            // not make undo write one task's content into another's place.
            guard transition.isWellFormed else { throw reader.failure() }
            result.append(transition)
        }
        return result
    }

    /// A view transition: its name and its filters (null: no view), each as the board keeps it.
    private static func readView(_ reader: inout JSONReader) throws -> ViewTransition {
        guard case .object(let members) = try reader.readValue(), case .string(let name)? = members["name"] else {
            throw reader.failure()
        }
        func filter(_ key: String) throws -> ViewFilter? {
            switch members[key] {
            case .null?: return nil
            case .object(let filter)?:
                guard let read = ViewFilter(filter) else { throw reader.failure() }
                return read
            default: throw reader.failure()
            }
        }
        return ViewTransition(name: name, from: try filter("from"), to: try filter("to"))
    }
}

/// FNV-1a, 64 bits: a hash that is the same in every run and on every
/// machine (Swift's `Hasher` is seeded per process), for file names.
enum StableHash {
    static func hex(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
