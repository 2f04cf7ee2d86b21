import PMCore
import PMICU
import PMKit
import PMLocalization

/// The message of every refusal and failure pm's layers throw (`PMError`,
/// `SessionError`), in the reader's language: what `pm` says after
/// `pm: error:`, and what another front end shows, word for word. Exit
/// codes are a process's business, not words: PMCLI's `ErrorReport` adds
/// them, and says the command line's own errors.
package enum ErrorMessages {
    /// The lines `error` is said with: the message, then any hint or
    /// candidates (`pm board` joins them on its status line). An error no
    /// layer of pm names (a front end's own, which it says itself, or a
    /// bug) is an internal error with its description.
    /// - Parameters:
    ///   - when: renders a stored ISO 8601 time for the reader (``TextStyle/momentInSentence(_:)``).
    ///   - formatLocale: the reader's date locale, for the example of a short date.
    ///   - reader: who reads it (PM_USER): their own change is "you", never their name.
    package static func lines(
        for error: Error, localizer l: Localizer, when: (String) -> String = { $0 }, formatLocale: String = "en_US",
        reader: String? = nil
    ) -> [String] {
        switch error {
        case let error as PMError: return lines(for: error, localizer: l, when: when, formatLocale: formatLocale, reader: reader)
        case let error as SessionError: return lines(for: error, localizer: l)
        case ServeError.cannotListen(let address, let port, let reason):
            return [
                l.string(
                    .errorServeCannotListen, .text(TextSafety.escaped(address)), .text(String(port)),
                    .text(TextSafety.escaped(reason)))
            ]
        case ServeError.tls(let path, let reason):
            return [l.string(.errorServeTLS, .text(TextSafety.escaped(path)), .text(TextSafety.escaped(reason)))]
        default: return [l.string(.errorInternal, .text(TextSafety.escaped(String(describing: error))))]
        }
    }

    /// The same, its moments and dates in `style`'s form (never coloured).
    package static func lines(for error: Error, localizer: Localizer, style: TextStyle, reader: String? = nil) -> [String] {
        lines(for: error, localizer: localizer, when: style.momentInSentence, formatLocale: style.formatLocale, reader: reader)
    }

    /// The lines of a refusal or failure of the board's core.
    package static func lines(
        for error: PMError, localizer l: Localizer, when: (String) -> String = { $0 }, formatLocale: String = "en_US",
        reader: String? = nil
    ) -> [String] {
        switch error {
        case .taskNotFound, .ambiguousID, .invalidID, .unknownState, .invalidDate, .emptyTitle, .titleTooLong,
            .bodyTooLong, .unsafeTitle, .badAssignee, .tooManyAssignees, .unsafeBody, .dateOutOfRange, .noSuchDate,
            .changeRefused, .badTime, .unknownZone:
            return describeInput(error, l, formatLocale: formatLocale)
        case .badLabel, .unknownPriority, .tooMany, .partNotFound, .emptyText, .textTooLong, .unsafeText, .notYourComment,
            .badViewName, .viewNotFound, .badRule:
            return [describeCard(error, l)]
        case .nothingToUndo, .nothingToRedo, .undoConflict:
            return describeUndo(error, l, when: when, reader: reader)
        case .boardCorrupt, .logCorrupt, .otherBoard, .notThisBoard, .mergeOldFormat, .mergeNoLog, .newerSchema,
            .stateCorrupt, .importRefused:
            return describeData(error, l)
        case .notARegularFile, .locked, .unsafeFile, .cannotSign, .readFailed, .createFailed, .saveFailed,
            .concurrentModification, .unreadableWrite:
            return describeFiles(error, l)
        }
    }

    /// What was typed or asked that pm refuses, or a task it cannot find.
    private static func describeInput(_ error: PMError, _ l: Localizer, formatLocale: String) -> [String] {
        let safe = { (text: String) in MessageArgument.text(TextSafety.escaped(text)) }
        switch error {
        case .taskNotFound(let text): return [l.string(.errorTaskNotFound, safe(text))]
        case .ambiguousID(let text, let candidates, let titles):
            let lines = zip(candidates, titles).map { l.string(.errorCandidate, .text($0.rawValue), safe($1)) }
            return [l.string(.errorAmbiguousID, safe(text))] + lines
        case .invalidID(let text): return [l.string(.errorInvalidID, safe(text))]
        case .unknownState(let text):
            return [l.string(.errorUnknownState, safe(text), .text(acceptedStates(l)))]
        case .invalidDate(let text):
            return [l.string(.errorInvalidDate, safe(text), .text(dateForms(l, formatLocale: formatLocale)))]
        case .emptyTitle: return [l.string(.errorTitleEmpty)]
        case .titleTooLong(let length, let limit):
            return [l.string(.errorTitleTooLong, .number(length), .number(limit))]
        case .bodyTooLong(let length, let limit): return [l.string(.errorBodyTooLong, .number(length), .number(limit))]
        case .unsafeTitle(let scalar): return [l.string(.errorTitleUnsafe, .text(character(scalar, l)))]
        case .badAssignee(let name): return [l.string(.errorBadAssignee, .text(TextSafety.escaped(name)))]
        case .tooManyAssignees(let limit): return [l.string(.errorTooManyAssignees, .number(limit))]
        case .unsafeBody(let scalar): return [l.string(.errorBodyUnsafe, .text(character(scalar, l)))]
        case .dateOutOfRange(let text): return [l.string(.errorDateOutOfRange, safe(text))]
        case .noSuchDate(let text): return [l.string(.errorNoSuchDate, safe(text))]
        case .badTime(_, let part): return [l.string(.errorBadTime, safe(part))]
        case .unknownZone(let name): return [l.string(.errorUnknownZone, safe(name))]
        case .changeRefused(.oversized(field: "author")), .changeRefused(.unsafeText(field: "author")):
            return [l.string(.errorUserNameRefused)]
        case .changeRefused(.oversized):
            return [l.string(.errorChangeTooLarge, .number(EventProblem.lineLimit >> 20))]
        case .changeRefused(.badAssignee): return [l.string(.errorChangeBadAssignee)]
        case .changeRefused: return [l.string(.errorChangeRefused)]
        default: return [l.string(.errorInternal, safe(String(describing: error)))]
        }
    }

    /// A label, priority, checklist item or comment refused.
    private static func describeCard(_ error: PMError, _ l: Localizer) -> String {
        let safe = { (text: String) in MessageArgument.text(TextSafety.escaped(text)) }
        switch error {
        case .badLabel(let name): return l.string(.errorBadLabel, safe(name))
        case .unknownPriority(let text): return l.string(.errorUnknownPriority, safe(text), .text(PriorityNames.accepted(l)))
        case .tooMany(.labels, let limit): return l.string(.errorTooManyLabels, .number(limit))
        case .tooMany(.items, let limit): return l.string(.errorTooManyItems, .number(limit))
        case .tooMany(.comments, let limit): return l.string(.errorTooManyComments, .number(limit))
        case .tooMany(.views, let limit): return l.string(.errorTooManyViews, .number(limit))
        case .badViewName(let name): return l.string(.errorBadViewName, safe(name))
        case .viewNotFound(let name): return l.string(.errorViewNotFound, safe(name))
        case .badRule(let text, let part): return l.string(.errorBadRule, safe(text), safe(part))
        case .partNotFound(.comments, let text): return l.string(.errorCommentNotFound, safe(text))
        case .partNotFound(_, let text): return l.string(.errorItemNotFound, safe(text))
        case .emptyText(.comments): return l.string(.errorCommentEmpty)
        case .emptyText: return l.string(.errorItemEmpty)
        case .textTooLong(.comments, let length, let limit):
            return l.string(.errorCommentTooLong, .number(length), .number(limit))
        case .textTooLong(_, let length, let limit): return l.string(.errorItemTooLong, .number(length), .number(limit))
        case .notYourComment(let author): return l.string(.errorNotYourComment, safe(author))
        case .unsafeText(.comments, let scalar): return l.string(.errorCommentUnsafe, .text(character(scalar, l)))
        case .unsafeText(_, let scalar): return l.string(.errorItemUnsafe, .text(character(scalar, l)))
        default: return l.string(.errorInternal, safe(String(describing: error)))
        }
    }

    /// Undo and redo refused.
    private static func describeUndo(_ error: PMError, _ l: Localizer, when: (String) -> String, reader: String?) -> [String] {
        let safe = { (text: String) in MessageArgument.text(TextSafety.escaped(text)) }
        switch error {
        case .nothingToUndo: return [l.string(.errorNothingToUndo)]
        case .nothingToRedo: return [l.string(.errorNothingToRedo)]
        case .undoConflict(let conflict):
            var lines: [String]
            if let by = conflict.by, let at = conflict.at {
                // The reader's own later change (from another machine) is "you", never their name.
                let you = by == reader
                let key: L10nKey
                switch (conflict.deleted, conflict.redo) {
                case _ where conflict.view:
                    // A view deleted since was changed as much as one saved again: one sentence says both.
                    key =
                        conflict.redo
                        ? (you ? .errorRedoViewConflictYou : .errorRedoViewConflict)
                        : (you ? .errorUndoViewConflictYou : .errorUndoViewConflict)
                case (false, false): key = you ? .errorUndoConflictYou : .errorUndoConflict
                case (true, false): key = you ? .errorUndoDeletedYou : .errorUndoDeleted
                case (false, true): key = you ? .errorRedoConflictYou : .errorRedoConflict
                case (true, true): key = you ? .errorRedoDeletedYou : .errorRedoDeleted
                }
                let moment = MessageArgument.text(TextSafety.escaped(when(at)))
                lines = [
                    you ? l.string(key, safe(conflict.title), moment) : l.string(key, safe(conflict.title), safe(by), moment)
                ]
            } else {
                let key: L10nKey =
                    conflict.view
                    ? (conflict.redo ? .errorRedoViewConflictUnknown : .errorUndoViewConflictUnknown)
                    : (conflict.redo ? .errorRedoConflictUnknown : .errorUndoConflictUnknown)
                lines = [l.string(key, safe(conflict.title))]
            }
            if !conflict.redo { lines.append(l.string(.errorUndoSkipHint)) }
            return lines
        default: return [l.string(.errorInternal, safe(String(describing: error)))]
        }
    }

    /// Damaged or foreign data: the board, its log, the state files, an import.
    private static func describeData(_ error: PMError, _ l: Localizer) -> [String] {
        let safe = { (text: String) in MessageArgument.text(TextSafety.escaped(text)) }
        switch error {
        case .boardCorrupt(let path, let line, let column, let reason):
            let why = describe(reason, l)
            let message: String
            if let line, let column {
                message = l.string(.errorBoardCorruptAt, safe(path), .number(line), .number(column), .text(why))
            } else {
                message = l.string(.errorBoardCorrupt, safe(path), .text(why))
            }
            return [message, l.string(.errorBoardCorruptHint)]
        case .logCorrupt(let path, let line, let column, let reason):
            // A log's line, not the file, is what is empty there.
            let why = reason == .empty ? l.string(.corruptEmptyLine) : describe(reason, l)
            let message = l.string(.errorLogCorrupt, safe(path), .number(line), .number(column), .text(why))
            return [message, l.string(.errorBoardCorruptHint)]
        case .otherBoard(let path, let found, let expected):
            return [l.string(.errorOtherBoard, safe(path), .text(found.rawValue), .text(expected.rawValue))]
        case .notThisBoard(let path): return [l.string(.errorNotThisBoard, safe(path))]
        case .mergeOldFormat(let path): return [l.string(.errorMergeOldFormat, safe(path))]
        case .mergeNoLog(let path, let log): return [l.string(.errorMergeNoLog, safe(path), safe(log))]
        case .newerSchema(let path, let found, let supported):
            return [l.string(.errorNewerSchema, safe(path), .number(found), .number(supported))]
        case .stateCorrupt(let path, let line?, let column?, let reason?, let file):
            let key: L10nKey =
                switch file {
                case .reminderLog: .errorReminderLogCorrupt
                case .syncState: .errorSyncStateCorruptAt
                case .newsMark: .errorNewsMarkCorruptAt
                case .invites: .errorInvitesCorruptAt
                default: .errorStateCorruptAt
                }
            return [l.string(key, safe(path), .number(line), .number(column), .text(describe(reason, l)))]
        case .stateCorrupt(let path, _, _, _, let file):
            let key: L10nKey =
                file == .newsMark ? .errorNewsMarkCorrupt : file == .invites ? .errorInvitesCorrupt : .errorStateCorrupt
            return [l.string(key, safe(path))]
        case .importRefused(let path, let line?, let column?, let problem):
            let why = MessageArgument.text(describe(problem, l))
            return [l.string(.errorImportRefusedAt, safe(path), .number(line), .number(column), why)]
        case .importRefused(let path, _, _, let problem):
            return [l.string(.errorImportRefused, safe(path), .text(describe(problem, l)))]
        default: return [l.string(.errorInternal, safe(String(describing: error)))]
        }
    }

    /// Files pm cannot read, write or lock.
    private static func describeFiles(_ error: PMError, _ l: Localizer) -> [String] {
        let safe = { (text: String) in MessageArgument.text(TextSafety.escaped(text)) }
        switch error {
        case .notARegularFile(let path): return [l.string(.errorBoardNotAFile, safe(path))]
        case .locked(let holder?) where !holder.isPM:
            return [l.string(.errorLockedOther, .number(Int(holder.pid)))]
        case .locked(let holder?):
            if let host = holder.host {
                return [l.string(.errorLockedRemote, .number(Int(holder.pid)), safe(host))]
            }
            return [l.string(.errorLocked, .number(Int(holder.pid)))]
        case .locked(nil): return [l.string(.errorLockedUnknown)]
        case .unsafeFile(let path): return [l.string(.errorUnsafeFile, safe(path))]
        case .cannotSign(let path): return [l.string(.errorCannotSign, safe(path))]
        case .readFailed(let path, let call):
            return [l.string(.errorCannotRead, safe(path), .text(describe(call, l)))]
        case .createFailed(let path, let call):
            return [l.string(.errorCannotCreate, safe(path), .text(describe(call, l)))]
        case .saveFailed(let path, let call, let file):
            let key: L10nKey
            switch file {
            case .board: key = .errorCannotSave
            case .undoState: key = .errorCannotSaveUndo
            case .reminderLog: key = .errorCannotSaveReminders
            case .output: key = .errorCannotWrite
            case .syncState: key = .errorCannotSaveSync
            case .newsMark: key = .errorCannotSaveNews
            case .invites: key = .errorCannotSaveInvites
            }
            return [l.string(key, safe(path), .text(describe(call, l)))]
        case .concurrentModification: return [l.string(.errorLockedUnknown)]
        case .unreadableWrite(let path): return [l.string(.errorUnreadableWrite, safe(path))]
        default: return [l.string(.errorInternal, safe(String(describing: error)))]
        }
    }

    /// The lines of a refusal or failure of a session's use case (sync, remotes, imports).
    package static func lines(for error: SessionError, localizer l: Localizer) -> [String] {
        let safe = { (text: String) in MessageArgument.text(TextSafety.escaped(text)) }
        switch error {
        case .noRemote: return [l.string(.errorNoRemote)]
        case .inviteLookalike(let name, let like):
            return [l.string(.errorInviteLookalike, safe(name), safe(like), .text(Sentences.codePoints(name)))]
        case .offline(let target, let waiting):
            let said =
                waiting == 0
                ? l.string(.syncOfflineNothingWaiting, safe(target)) : l.plural(.syncOffline, count: waiting, safe(target))
            return [said]
        case .otherBoard(let target, let tasks, let synced, let beside):
            // Named by the remote, with the two ways on, as commands to paste.
            let said = l.plural(
                synced ? .syncOtherBoardChanged : .syncOtherBoard, count: tasks,
                .text(ShellWord.quoted(TextSafety.escaped(target))), .text(ShellWord.quoted(TextSafety.escaped(beside))))
            return [said]
        case .importNoSuchList(let name, let file, let lists):
            return [
                l.string(
                    .errorImportNoSuchList, safe(name), safe(file),
                    .text(l.list(lists.map { l.string(.importListName, safe($0)) })))
            ]
        case .importNoSuchMember(let name, let file, let members) where members.isEmpty:
            return [l.string(.errorImportNoMembers, safe(name), importFile(file, l))]
        case .importNoSuchMember(let name, let file, let members):
            return [
                l.string(
                    .errorImportNoSuchMember, safe(name), importFile(file, l),
                    .text(l.list(members.map { l.string(.importListName, safe($0)) })))
            ]
        case .remoteLooksLikeOption(let text): return [l.string(.errorRemoteLooksLikeOption, safe(text))]
        case .remoteFolderMissing(let text): return [l.string(.errorRemoteFolderMissing, safe(text))]
        case .syncFailed(let target, .badRemote(_, let detail)):
            return [l.string(.errorBadRemote, safe(target), safe(detail))]
        case .syncFailed(let target, .busy): return [l.string(.syncBusy, safe(target))]
        case .syncFailed(let target, .local(let detail)):
            return [l.string(.syncLocalFailure, safe(target), safe(detail))]
        case .syncFailed(let target, .permission(_, let detail)):
            return [l.string(.syncPermission, safe(target), safe(detail))]
        case .syncFailed(_, .diskFull(let place, let detail)):
            return [l.string(.syncDiskFull, safe(place), safe(detail))]
        case .syncFailed(_, let reason):
            return [l.string(.errorInternal, safe(String(describing: reason)))]
        }
    }

    /// The file an import read, as a message names it (`-`: standard input).
    private static func importFile(_ file: String, _ l: Localizer) -> MessageArgument {
        file == "-" ? .text(l.string(.importStandardInput)) : .text(TextSafety.escaped(file))
    }
}
