/// Why a board file cannot be used.
public enum CorruptionReason: Equatable, Sendable {
    /// Zero bytes: only a missing file is a new board.
    case empty
    /// The JSON stops before it is complete.
    case truncated
    /// Not JSON at this point.
    case syntax
    /// git left `<<<<<<<` / `=======` / `>>>>>>>` lines in it.
    case conflictMarkers
    /// A byte sequence that is not UTF-8, at this byte offset.
    case invalidUTF8(byteOffset: Int)
    /// A required field is missing or has a wrong value.
    case field(String)
    /// Two tasks share an id (a bad merge).
    case duplicateID(TaskID)
    /// An object names this key twice (a bad hand merge): pm will not keep one value silently.
    case duplicateKey(String)
}

/// Which file a failed save was about: the message must say what did and
/// did not change (DESIGN.md §10).
public enum SavedFile: Equatable, Sendable {
    /// The board itself: it is unchanged.
    case board
    /// The user's undo history, saved before the board: the board is unchanged.
    case undoState
    /// Which reminders were shown: they were printed, and may be shown again.
    case reminderLog
    /// A file the user asked for (`--output`).
    case output
    /// Where this copy syncs and how the last sync went.
    case syncState
    /// Where the user last looked at what others changed (`pm news`): the
    /// news were shown, and may be shown again.
    case newsMark
    /// The personal links to the web board (`pm serve invite`): the link was not made, or not revoked.
    case invites
}

/// Who holds a board's lock, as far as pm can tell.
public struct LockHolder: Equatable, Sendable {
    /// The holder's process id.
    public var pid: Int32
    /// The holder's host, when it is not this one.
    public var host: String?
    /// Whether the holder is a pm (it wrote its pid into the lock file).
    public var isPM: Bool

    public init(pid: Int32, host: String? = nil, isPM: Bool = true) {
        self.pid = pid
        self.host = host
        self.isPM = isPM
    }
}

/// A failing file-system call: which, and the `errno` it returned.
public struct SystemCallError: Error, Equatable, Sendable {
    /// The call's name (`open`, `rename`…), for diagnostics.
    public var call: String
    /// The `errno` value.
    public var code: Int32

    public init(call: String, code: Int32) {
        self.call = call
        self.code = code
    }
}

/// A part of a card that a person adds to, one at a time.
public enum CardPart: String, Equatable, Sendable {
    case labels, items, comments, views
}

/// Everything that can go wrong in the core. Cases carry data, never text:
/// the command layer turns each into a localized message and an exit code.
public enum PMError: Error, Equatable, Sendable {
    /// No task has an id starting with this text.
    case taskNotFound(String)
    /// Several tasks match this prefix: their ids, and their titles to show.
    case ambiguousID(String, candidates: [TaskID], titles: [String])
    /// Not 4+ hex digits of a UUID.
    case invalidID(String)
    /// Not a state key nor a column name in a shipped language.
    case unknownState(String)
    /// Not an accepted date form.
    case invalidDate(String)
    /// The title is empty or only white space.
    case emptyTitle
    /// The title has `length` characters, over `limit`.
    case titleTooLong(length: Int, limit: Int)
    /// The body has `length` characters, over `limit`.
    case bodyTooLong(length: Int, limit: Int)
    /// A typed title contains a control, escape or bidi character.
    case unsafeTitle(Unicode.Scalar)
    /// A typed body contains a control, escape or bidi character.
    case unsafeBody(Unicode.Scalar)
    /// Not a name a card can be assigned to (``Assignees/validName(_:)``): as typed.
    case badAssignee(String)
    /// A card would have more than `limit` names (``Assignees/taskLimit``).
    case tooManyAssignees(limit: Int)
    /// Not a label a card can carry (``Labels/validName(_:)``): as typed.
    case badLabel(String)
    /// Not a priority in any shipped language: as typed.
    case unknownPriority(String)
    /// A card would have more than `limit` labels, checklist items or comments.
    case tooMany(CardPart, limit: Int)
    /// No checklist item or comment of the card answers to this (a number
    /// as shown, or an id): as typed.
    case partNotFound(CardPart, String)
    /// A checklist item or comment with nothing visible in it.
    case emptyText(CardPart)
    /// A checklist item or comment of `length` characters, over `limit`.
    case textTooLong(CardPart, length: Int, limit: Int)
    /// A checklist item or comment typed with a control, escape or bidi character.
    case unsafeText(CardPart, Unicode.Scalar)
    /// Not a name a saved view can have (the rules of a label): as typed.
    case badViewName(String)
    /// No saved view has this name: as typed.
    case viewNotFound(String)
    /// A comment only its author may rewrite or withdraw.
    case notYourComment(author: String)
    /// The board file cannot be parsed; `line`/`column` are 1-based when known.
    case boardCorrupt(path: String, line: Int?, column: Int?, reason: CorruptionReason)
    /// A line of the event log other than its last cannot be read: the log
    /// is the truth, so pm never rewrites it. `line` is 1-based.
    case logCorrupt(path: String, line: Int, column: Int, reason: CorruptionReason)
    /// The file was written by a newer schema; pm will not write it.
    case newerSchema(path: String, found: Int, supported: Int)
    /// Events or a copy that belong to another board (another id).
    case otherBoard(path: String, found: TaskID, expected: TaskID)
    /// An event log that shares no change with this board: another board's.
    case notThisBoard(path: String)
    /// `pm merge` was given a pm 0.1 board (its events have no stable ids yet).
    case mergeOldFormat(path: String)
    /// `pm merge` was given a board file without its event log beside it.
    case mergeNoLog(path: String, log: String)
    /// The board path is a directory, FIFO or device.
    case notARegularFile(path: String)
    /// Another process holds the board's lock; who, when known.
    case locked(LockHolder?)
    /// A lock, temp or state file is a symbolic link, has other names, or is
    /// not a regular file: someone with access to the folder may have put it
    /// there, so pm neither follows nor truncates it.
    case unsafeFile(path: String)
    /// This copy could not make a key (at `path`) and the board takes only
    /// signed changes from copies it has not seen (``ReplicaLedger``).
    case cannotSign(path: String)
    /// Reading a file failed.
    case readFailed(path: String, SystemCallError)
    /// Creating a file or directory failed.
    case createFailed(path: String, SystemCallError)
    /// Saving a file failed; the old file is intact. `file` says which.
    case saveFailed(path: String, SystemCallError, file: SavedFile = .board)
    /// The file kept changing under pm (a shared folder that ignores locks).
    case concurrentModification(path: String)
    /// This user has nothing to undo on this board.
    case nothingToUndo
    /// This user has nothing to redo on this board.
    case nothingToRedo
    /// The task was changed after the change to undo or redo.
    case undoConflict(UndoConflict)
    /// A date that names a day outside years 1–9999, which a board cannot hold.
    case dateOutOfRange(String)
    /// A written date that names no day of the calendar (`Feb 30`).
    case noSuchDate(String)
    /// A recurring rule (`--every`) pm cannot read; `part` is what it could not.
    case badRule(String, part: String)
    /// A deadline's time of day that cannot be (`25:00`, `13pm`); `part` is the time as typed.
    case badTime(String, part: String)
    /// A time zone named after a deadline that this system does not know.
    case unknownZone(String)
    /// A change that another copy of the board would refuse (RELIABILITY.md:
    /// what pm accepts from its user, every copy accepts): refused here too.
    case changeRefused(EventProblem)
    /// What pm was about to write would not read back: nothing was written
    /// (a bug, never expected).
    case unreadableWrite(path: String)
    /// The user's undo state file cannot be read.
    /// An import file refused (nothing was written); `line`/`column` are 1-based when known.
    case importRefused(path: String, line: Int?, column: Int?, problem: ImportProblem)
    case stateCorrupt(
        path: String, line: Int? = nil, column: Int? = nil, reason: CorruptionReason? = nil, file: SavedFile = .undoState)
}
