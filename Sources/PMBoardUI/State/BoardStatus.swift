import PMICU
import PMLocalization

/// One line of the history panel, in parts, so that a narrow panel drops
/// the least useful first: the date before the change itself (a Korean undo
/// line cut before its verb says nothing).
public struct BoardHistoryLine: Equatable, Sendable {
    /// The date and time in full, and shorter (the time alone today).
    public var when: String
    public var shortWhen: String
    public var who: String
    public var what: String

    public init(when: String, shortWhen: String, who: String, what: String) {
        self.when = when
        self.shortWhen = shortWhen
        self.who = who
        self.what = what
    }
}

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
    /// The summary's parts, the most useful first, each with a shorter
    /// form: what the status line shows when the summary does not fit
    /// (``summary(fitting:)``). Empty: the summary as it is.
    public var parts: [Part]

    /// One part of the summary, and its shorter wording.
    public struct Part: Equatable, Sendable {
        public var full: String
        public var short: String
        public init(_ full: String, short: String? = nil) {
            self.full = full
            self.short = short ?? full
        }
    }

    public init(link: Link = .local, indicator: String = "", summary: String = "", message: String = "", parts: [Part] = []) {
        self.link = link
        self.indicator = indicator
        self.summary = parts.isEmpty ? summary : parts.map(\.full).joined(separator: " · ")
        self.message = message
        self.parts = parts
    }

    /// The summary in at most `cells` cells: every part in full when it
    /// fits; else the least useful parts in their shorter wording first,
    /// then the least useful left out — never a part cut in the middle
    /// (`0 modification en at…`) unless the most useful alone is too wide.
    public func summary(fitting cells: Int) -> String {
        guard !parts.isEmpty else { return TerminalCells.truncate(summary, toWidth: cells) }
        var forms = parts.map(\.full)
        func line(_ count: Int) -> String { forms.prefix(count).filter { !$0.isEmpty }.joined(separator: " · ") }
        for index in forms.indices.reversed() where TerminalCells.width(of: line(forms.count)) > cells {
            forms[index] = parts[index].short
        }
        var count = forms.count
        while count > 1 && TerminalCells.width(of: line(count)) > cells { count -= 1 }
        return TerminalCells.truncate(line(count), toWidth: cells)
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
