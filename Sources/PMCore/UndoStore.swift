import PMICU

/// Keeps one user's undo and redo stacks for one board in their state
/// directory (DESIGN.md §5), so that they survive between runs and machines
/// sharing the board file do not share them.
public struct UndoStore: Sendable {
    /// The state file.
    public let path: String
    let fileSystem: FileSystem

    /// The store for `user` on the board `boardID`, under `stateDirectory`.
    public init(stateDirectory: String, boardID: TaskID, user: String, fileSystem: FileSystem = PosixFileSystem()) {
        path = Self.stateFile("undo", in: stateDirectory, boardID: boardID, user: user)
        self.fileSystem = fileSystem
    }

    /// `<directory>/<kind>-<board id>-<user>.json`: per-user state is keyed by
    /// board and user (DESIGN.md §5).
    static func stateFile(_ kind: String, in directory: String, boardID: TaskID, user: String) -> String {
        directory + "/" + kind + "-" + boardID.rawValue + "-" + fileNamePart(user) + ".json"
    }

    /// A user name made safe for a file name: letters, digits, `-`, `_`, `.`
    /// kept, everything else as `%XX`.
    static func fileNamePart(_ user: String) -> String {
        var result = ""
        for byte in user.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return String(result.prefix(120))
    }

    /// The stacks; empty when the file does not exist yet.
    /// - Throws: ``PMError/stateCorrupt(path:)`` when it cannot be read.
    public func load() throws -> UndoState {
        let bytes: [UInt8]
        do {
            guard try fileSystem.status(path) != nil else { return UndoState() }
            bytes = try fileSystem.readFile(path)
        } catch let error as SystemCallError {
            throw PMError.readFailed(path: path, error)
        }
        guard UTF8Validation.firstInvalidOffset(in: bytes) == nil,
            let state = try? bytes.withUnsafeBufferPointer({ buffer -> UndoState in
                var reader = JSONReader(buffer)
                return try Self.readState(&reader)
            })
        else { throw PMError.stateCorrupt(path: path) }
        return state
    }

    /// Saves the stacks atomically. The caller holds the board's lock.
    public func save(_ state: UndoState) throws {
        let directory = BoardStore.directory(of: path)
        do {
            try fileSystem.createDirectories(directory)
        } catch let error as SystemCallError {
            throw PMError.createFailed(path: directory, error)
        }
        var writer = JSONWriter()
        writer.object(
            [
                ("redo", { Self.write(state.redo, into: &$0) }),
                ("undo", { Self.write(state.undo, into: &$0) }),
            ], level: 0)
        writer.raw("\n")
        let atomic = AtomicFileWriter(fileSystem: fileSystem)
        atomic.removeStaleTemporaryFiles(of: path)
        _ = try atomic.write(writer.finishedChunks(), to: path, mode: 0o600)
    }

    private static func write(_ transitions: [Transition], into writer: inout JSONWriter) {
        writer.array(count: transitions.count, level: 1) { writer, index in
            let transition = transitions[index]
            writer.object(
                [
                    ("at", { $0.string(transition.at) }),
                    ("event", { $0.string(transition.eventID.rawValue) }),
                    ("from", { w in Self.write(transition.from, into: &w) }),
                    ("to", { w in Self.write(transition.to, into: &w) }),
                ], level: 2)
        }
    }

    private static func write(_ task: BoardTask?, into writer: inout JSONWriter) {
        guard let task else {
            writer.raw("null")
            return
        }
        BoardEncoder.writeTask(task, overdue: nil, into: &writer, level: 3)
    }

    private static func readState(_ reader: inout JSONReader) throws -> UndoState {
        var state = UndoState()
        try reader.beginObject()
        var first = true
        while let key = try reader.nextKey(first: &first) {
            switch key {
            case "undo": state.undo = try readTransitions(&reader)
            case "redo": state.redo = try readTransitions(&reader)
            default: _ = try reader.readValue()
            }
        }
        return state
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
            try reader.beginObject()
            var firstKey = true
            while let key = try reader.nextKey(first: &firstKey) {
                switch key {
                case "from": from = try reader.readNullIfPresent() ? nil : try BoardDecoder.readTask(&reader)
                case "to": to = try reader.readNullIfPresent() ? nil : try BoardDecoder.readTask(&reader)
                case "event": event = try BoardDecoder.readID(&reader, field: key)
                case "at": at = try BoardDecoder.readString(&reader, field: key)
                default: _ = try reader.readValue()
                }
            }
            guard let event, let at, from != nil || to != nil else { throw reader.failure() }
            result.append(Transition(from: from, to: to, eventID: event, at: at))
        }
        return result
    }
}
