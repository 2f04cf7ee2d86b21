import PMICU
import PMKit
import PMLocalization

/// What a session says besides a use case's answer, on standard error.
enum SessionNotices {
    static func say(_ notice: SessionNotice, output: Output, localizer l: Localizer) {
        let shown = { (text: String) in MessageArgument.text(TextSafety.escaped(text)) }
        switch notice {
        case .boardChanged: output.done = .changedBoard
        case .noBoardYet(let path): output.errorLine(l.string(.messageNoBoardYet, shown(path)))
        case .newBoard(let path): output.errorLine(l.string(.messageNewBoard, shown(path)))
        case .olderLogRecovered(let kept, let log, let copy):
            output.errorLine(l.plural(.messageOlderLog, count: kept, shown(log), shown(copy)))
        case .conflictedCopyMerged(let path, let added, let movedAside):
            output.errorLine(l.plural(movedAside ? .mergeConflictedCopy : .mergeConflictedCopyKept, count: added, shown(path)))
        }
    }
}
