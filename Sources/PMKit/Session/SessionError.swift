import PMSync

/// What a use case refuses, beyond the core's ``PMError``: each case is
/// mapped once to its message and exit code by the front end.
public enum SessionError: Error, Equatable, Sendable {
    /// Sync without a remote set.
    case noRemote
    /// The remote did not answer; `waiting` changes wait to be sent.
    case offline(target: String, waiting: Int)
    /// The remote holds another board; this copy has `tasks` tasks and had
    /// (`synced`) or had not synced before; `beside` is where a second board could go.
    case otherBoard(target: String, tasks: Int, synced: Bool, beside: String)
    /// `--map NAME=…` names a list `file` does not have (it has `lists`).
    case importNoSuchList(name: String, file: String, lists: [String])
    /// `--member NAME=…` names someone on no card of `file` (whose cards name `members`).
    case importNoSuchMember(name: String, file: String, members: [String])
    /// `pm remote add` with what git would read as an option.
    case remoteLooksLikeOption(String)
    /// `pm remote add` with a folder that is not there and cannot be made.
    case remoteFolderMissing(String)
    /// A sync with `target` (as the person named it) stopped for `reason`.
    case syncFailed(target: String, reason: SyncError)
    /// `pm serve invite NAME`: NAME reads like `like`, who already has a link or serves the board.
    case inviteLookalike(name: String, like: String)
}
