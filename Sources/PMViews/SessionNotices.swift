import PMICU
import PMKit
import PMLocalization

/// What a session says besides a use case's answer: a board made or not
/// there yet, an older log put back, a sync tool's copy folded in.
package enum SessionNotices {
    /// The line `notice` is said with, or nil for one that is no sentence
    /// (``SessionNotice/boardChanged``: what a front end remembers, so that
    /// an error after it says the board was changed all the same).
    package static func line(_ notice: SessionNotice, localizer l: Localizer) -> String? {
        let shown = { (text: String) in MessageArgument.text(TextSafety.escaped(text)) }
        switch notice {
        case .boardChanged: return nil
        case .noBoardYet(let path): return l.string(.messageNoBoardYet, shown(path))
        case .newBoard(let path): return l.string(.messageNewBoard, shown(path))
        case .olderLogRecovered(let kept, let log, let copy):
            return l.plural(.messageOlderLog, count: kept, shown(log), shown(copy))
        case .conflictedCopyMerged(let path, let added, let movedAside):
            return l.plural(movedAside ? .mergeConflictedCopy : .mergeConflictedCopyKept, count: added, shown(path))
        }
    }
}
