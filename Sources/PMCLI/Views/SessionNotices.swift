import PMKit
import PMLocalization
import PMViews

extension SessionNotices {
    /// Says `notice` on standard error (its words: ``line(_:localizer:)``),
    /// or marks the output as having changed the board.
    static func say(_ notice: SessionNotice, output: Output, localizer l: Localizer) {
        if case .boardChanged = notice { output.done = .changedBoard }
        if let line = line(notice, localizer: l) { output.errorLine(line) }
    }
}
