import PMLocalization

/// What the status line says besides the keys' notices: whether this copy
/// reaches its remote (always shown, at the right), the last sync, and the
/// last action's message (for a few seconds).
public struct BoardStatus: Equatable, Sendable {
    /// The link to the remote, as the apps' online/offline indicator.
    public enum Link: Equatable, Sendable {
        /// No remote: the board lives on this machine only.
        case local
        case online
        case syncing
        /// The last try to reach the remote failed.
        case offline
    }

    public var link: Link
    /// The indicator's words, in the reader's language (`● online`, `✕ offline since 14:02`).
    public var indicator: String
    /// The last sync and what waits (`Last sync … · 2 changes waiting`).
    public var summary: String
    /// The last action's message; empty once it has been up a few seconds.
    public var message: String

    public init(link: Link = .local, indicator: String = "", summary: String = "", message: String = "") {
        self.link = link
        self.indicator = indicator
        self.summary = summary
        self.message = message
    }
}

extension BoardScreen.Answers {
    /// The answers of the reader's language (`board.yesKeys`, `board.noKeys`);
    /// y and n when a table gives none, or the same key for both.
    public init(_ localizer: Localizer) {
        let yes = Set(localizer.string(.boardYesKeys).filter { !$0.isWhitespace })
        let no = Set(localizer.string(.boardNoKeys).filter { !$0.isWhitespace })
        if !yes.isEmpty, !no.isEmpty, yes.isDisjoint(with: no) { self.init(yes: yes, no: no) } else { self.init() }
    }
}
