import PMCore

/// Where a board syncs (DESIGN.md §9): a folder (a network share, a
/// Syncthing/Dropbox/Nextcloud folder) or a git repository, on a branch of
/// pm's own so it never mixes with the team's code.
public enum RemoteTarget: Equatable, Sendable {
    case folder(String)
    case git(String)

    /// The branch a git remote keeps the board on.
    public static let branch = "pm-board"

    /// What `text` names: a URL (`ssh://`, `https://`, `file://`, `git@host:path`)
    /// or a git repository → git; an existing folder that is not one → folder
    /// (whatever its name); a path to nothing yet → git when it ends in
    /// `.git`, else folder.
    public init(_ text: String, isGitRepository: (String) -> Bool, isDirectory: (String) -> Bool = { _ in false }) {
        if !Self.isLocalPath(text) || isGitRepository(text) {
            self = .git(text)
        } else if isDirectory(text) {
            self = .folder(text)
        } else if text.hasSuffix(".git") || text.hasSuffix(".git/") {
            self = .git(text)
        } else {
            self = .folder(text)
        }
    }

    /// The kind recorded when it was added (``kind``), else as ``init(_:isGitRepository:isDirectory:)`` finds it.
    public init(_ text: String, kind: String?, isGitRepository: (String) -> Bool, isDirectory: (String) -> Bool) {
        switch kind {
        case "git": self = .git(text)
        case "folder": self = .folder(text)
        default: self.init(text, isGitRepository: isGitRepository, isDirectory: isDirectory)
        }
    }

    /// `git` or `folder`, as the sync state records it.
    public var kind: String {
        if case .git = self { return "git" }
        return "folder"
    }

    /// Whether `text` is a path on this machine rather than a URL or an
    /// scp-like `user@host:path`.
    public static func isLocalPath(_ text: String) -> Bool {
        if text.contains("://") { return false }
        if let colon = text.firstIndex(of: ":"), !text.hasPrefix("/"), !text[..<colon].contains("/") { return false }
        return true
    }

    /// Whether `text` could be read by git as an option rather than a place
    /// (`--upload-pack=CMD`): such a target is refused, never handed on.
    public static func looksLikeOption(_ text: String) -> Bool { text.hasPrefix("-") }

    /// How it is shown.
    public var description: String {
        switch self {
        case .folder(let path): return path
        case .git(let url): return url
        }
    }
}

/// A file the remote holds: its path there (``RemoteLayout``) and
/// where it can be read on this machine (in the folder, or pm's git clone),
/// a regular file found without following links.
public struct RemoteEntry: Equatable, Sendable {
    public var name: String
    public var path: String
    /// Its size when listed (a sparse or growing file may say anything).
    public var size: Int64

    public init(name: String, path: String, size: Int64 = 0) {
        self.name = name
        self.path = path
        self.size = size
    }
}

/// A file to write on the remote: its path there (``RemoteLayout``) and bytes.
public struct RemoteFile: Equatable, Sendable {
    public var name: String
    public var bytes: [UInt8]

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }
}

/// What a remote holds: the board it is for (when set up) and the replicas' files.
public struct RemoteSnapshot: Equatable, Sendable {
    public var boardID: TaskID?
    public var files: [RemoteEntry]
    /// Folders whose files were not all listed (past the listing's limit).
    public var unlisted: [String] = []
    /// What is there but is no file pm reads: links, pipes, devices, folders
    /// where a file or a replica's folder belongs (the first hundred).
    public var notFiles: [String] = []

    public init(boardID: TaskID? = nil, files: [RemoteEntry] = []) {
        self.boardID = boardID
        self.files = files
    }
}

/// Why a sync stopped.
public enum SyncError: Error, Equatable, Sendable {
    /// The remote could not be reached in time (detail: what the transport said).
    case unreachable(target: String, detail: String)
    /// Someone published first; fetch again and retry.
    case rejected
    /// The remote's description file is not pm's.
    case badRemote(target: String, detail: String)
    /// Another sync of this copy is still running.
    case busy
    /// Something on this machine (pm's own files for the sync) could not be used.
    case local(detail: String)
    /// The remote holds another board than this one (`pm sync --join` joins it).
    case otherBoard(remote: TaskID, local: TaskID)
    /// The remote (or pm's files for it) refused this user: no access.
    case permission(target: String, detail: String)
    /// No space left where the sync had to write (the remote or pm's clone).
    case diskFull(target: String, detail: String)

    /// What a failure git or the file system reported is, when it is one of
    /// the failures that have a name of their own: permission, disk full.
    static func classified(_ text: String, target: String) -> SyncError? {
        let lower = text.lowercased()
        if lower.contains("no space left on device") || lower.contains("disk quota exceeded") {
            return .diskFull(target: target, detail: text)
        }
        if lower.contains("permission denied") || lower.contains("insufficient permission")
            || lower.contains("dubious ownership") || lower.contains("unable to create temporary object directory")
            || lower.contains("authentication failed") || lower.contains("could not read username")
            || lower.contains("the requested url returned error: 403") || lower.contains("read-only file system")
        {
            return .permission(target: target, detail: text)
        }
        return nil
    }
}

/// Moves files between this machine and a remote; decides nothing about merging.
public protocol Transport: Sendable {
    /// Everything the remote holds now.
    func fetch() throws -> RemoteSnapshot
    /// Writes `files` (whole, atomically each) and moves the `aside` files to
    /// `aside/`, in one step where the remote allows it.
    /// - Throws: ``SyncError/rejected`` when someone else published first.
    func publish(_ files: [RemoteFile], aside: [String], message: String) throws
    /// Whether the remote answers now (for `pm status`), within a few seconds.
    func reachable() -> Bool
    /// Whether the remote holds every one of `names` (files a sync published):
    /// nil when that cannot be told, or only over the network and `network`
    /// is false.
    func holds(_ names: [String], network: Bool) -> Bool?
}

/// `pm-board.json` at the remote's root: which board it holds.
public enum RemoteDescription {
    /// The board a folder remote holds, read without following a link;
    /// nil when it holds none yet (or not a description pm reads).
    public static func board(inFolder folder: String, files: FileSystem = PosixFileSystem()) -> TaskID? {
        let path = folder + "/" + name
        guard let status = (try? files.linkStatus(path)) ?? nil, status.kind == .regular, status.size <= 64 * 1024,
            let bytes = try? files.readFileNoFollow(path)
        else { return nil }
        return board(in: bytes)
    }

    static let name = "pm-board.json"

    static func bytes(board: TaskID) -> [UInt8] {
        Array("{\"board\": \"\(board.rawValue)\", \"format\": 1}\n".utf8)
    }

    /// The board id in a description file; nil when it is not one.
    static func board(in bytes: [UInt8]) -> TaskID? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let range = text.firstRange(of: "\"board\"") else { return nil }
        let rest = text[range.upperBound...].drop { $0 == " " || $0 == ":" || $0 == "\n" || $0 == "\t" }
        guard rest.first == "\"" else { return nil }
        return TaskID(String(rest.dropFirst().prefix(36)))
    }
}
