/// Keys of messages that take a count, without their plural category suffix
/// (`list.summary` stands for `list.summary.one`, `list.summary.other`, …).
public enum L10nPluralKey: String, CaseIterable, Sendable {
    case exportWritten = "export.written"
    case listHeader = "list.header"
    case l10nClean = "l10n.clean"
    case listOverdue = "list.overdue"
    case listSummary = "list.summary"
    case mergeDone = "merge.done"
    case mergeSkipped = "merge.skipped"
    case syncOffline = "sync.offline"
    case syncOtherBoard = "sync.otherBoard"
    case syncOtherBoardChanged = "sync.otherBoardChanged"
    case syncJoined = "sync.joined"
    case syncForwarded = "sync.forwarded"
    case messageOlderLog = "message.olderLog"
    case listSync = "list.sync"
    case listSyncNever = "list.syncNever"
    case statusWaitingCount = "status.waitingCount"
    case mergeConflictedCopy = "merge.conflictedCopy"
    case mergeConflictedCopyKept = "merge.conflictedCopyKept"
    case boardMoreAbove = "board.moreAbove"
    case boardMoreBelow = "board.moreBelow"
}
