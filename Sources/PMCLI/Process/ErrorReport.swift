import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization

#if canImport(Glibc)
    import Glibc
#endif

/// Turns every error into a localized message and an exit code (DESIGN.md §10).
enum ErrorReport {
    enum ExitStatus: Int32 {
        case refused = 1
        case usage = 64
        case badData = 65
        case internalError = 70
        case cannotCreate = 73
        case ioError = 74
        case locked = 75
        case noPermission = 77
    }

    /// The message lines (without the `pm: error:` prefix) and the exit status for `error`.
    /// - Parameters:
    ///   - when: renders a stored ISO 8601 time for the reader.
    ///   - formatLocale: the reader's date locale, for the example of a short date.
    ///   - reader: who reads it (PM_USER): their own change is "you", never their name.
    static func describe(
        _ error: Error, localizer l: Localizer, when: (String) -> String = { $0 }, formatLocale: String = "en_US",
        reader: String? = nil
    ) -> (lines: [String], status: ExitStatus) {
        switch error {
        case let error as PMError:
            return describe(error, localizer: l, when: when, formatLocale: formatLocale, reader: reader)
        case let error as SessionError:
            return describe(error, localizer: l)
        case let error as CLIError:
            switch error {
            case .invalidEnvironment(let name, let value):
                return ([l.string(.errorInvalidEnvironment, .text(name), .text(TextSafety.escaped(value)))], .usage)
            case .dueAndNoDue: return ([l.string(.errorDueAndNoDue)], .usage)
            case .nothingToEdit: return ([l.string(.errorNothingToEdit)], .usage)
            case .invalidLimit(let value): return ([l.string(.errorInvalidLimit, .number(value))], .usage)
            case .argumentNotUTF8(let position): return ([l.string(.errorArgumentNotUTF8, .number(position))], .usage)
            case .boardNeedsTerminal: return ([l.string(.errorBoardNeedsTerminal)], .usage)
            case .boardDumbTerminal(let term):
                return ([l.string(.errorBoardDumbTerminal, .text(term.isEmpty ? "—" : TextSafety.escaped(term)))], .usage)
            case .csvDelimiter(let text): return ([l.string(.errorCsvDelimiter, .text(TextSafety.escaped(text)))], .usage)
            case .csvHeaders(let text): return ([l.string(.errorCsvHeaders, .text(TextSafety.escaped(text)))], .usage)
            case .importMember(let text): return ([l.string(.errorImportMember, .text(TextSafety.escaped(text)))], .usage)
            case .importMap(let text): return ([l.string(.errorImportMap, .text(TextSafety.escaped(text)))], .usage)
            case .outputFailed(let call, let done):
                let why = MessageArgument.text(describe(call, l))
                switch done {
                case .nothing: return ([l.string(.errorOutputFailed, why)], .ioError)
                case .changedBoard: return ([l.string(.errorOutputFailedAfterChange, why)], .ioError)
                case .wroteFile(let path):
                    return ([l.string(.errorOutputFailedAfterWrite, .text(TextSafety.escaped(path)), why)], .ioError)
                }
            }
        default:
            return ([l.string(.errorInternal, .text(TextSafety.escaped(String(describing: error))))], .internalError)
        }
    }

    static func describe(
        _ error: PMError, localizer l: Localizer, when: (String) -> String = { $0 }, formatLocale: String = "en_US",
        reader: String? = nil
    ) -> (lines: [String], status: ExitStatus) {
        switch error {
        case .taskNotFound, .ambiguousID, .invalidID, .unknownState, .invalidDate, .emptyTitle, .titleTooLong,
            .bodyTooLong, .unsafeTitle, .badAssignee, .tooManyAssignees, .unsafeBody, .dateOutOfRange, .noSuchDate,
            .changeRefused:
            return describeInput(error, l, formatLocale: formatLocale)
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

    /// What was typed or asked that pm refuses (64), or a task it cannot find (1).
    private static func describeInput(_ error: PMError, _ l: Localizer, formatLocale: String) -> (
        lines: [String], status: ExitStatus
    ) {
        let safe = { (text: String) in MessageArgument.text(TextSafety.escaped(text)) }
        switch error {
        case .taskNotFound(let text): return ([l.string(.errorTaskNotFound, safe(text))], .refused)
        case .ambiguousID(let text, let candidates, let titles):
            let lines = zip(candidates, titles).map { l.string(.errorCandidate, .text($0.rawValue), safe($1)) }
            return ([l.string(.errorAmbiguousID, safe(text))] + lines, .refused)
        case .invalidID(let text): return ([l.string(.errorInvalidID, safe(text))], .refused)
        case .unknownState(let text):
            return ([l.string(.errorUnknownState, safe(text), .text(acceptedStates(l)))], .refused)
        case .invalidDate(let text):
            return ([l.string(.errorInvalidDate, safe(text), .text(dateForms(l, formatLocale: formatLocale)))], .usage)
        case .emptyTitle: return ([l.string(.errorTitleEmpty)], .usage)
        case .titleTooLong(let length, let limit):
            return ([l.string(.errorTitleTooLong, .number(length), .number(limit))], .usage)
        case .bodyTooLong(let length, let limit): return ([l.string(.errorBodyTooLong, .number(length), .number(limit))], .usage)
        case .unsafeTitle(let scalar): return ([l.string(.errorTitleUnsafe, .text(character(scalar, l)))], .usage)
        case .badAssignee(let name): return ([l.string(.errorBadAssignee, .text(TextSafety.escaped(name)))], .usage)
        case .tooManyAssignees(let limit): return ([l.string(.errorTooManyAssignees, .number(limit))], .usage)
        case .unsafeBody(let scalar): return ([l.string(.errorBodyUnsafe, .text(character(scalar, l)))], .usage)
        case .dateOutOfRange(let text): return ([l.string(.errorDateOutOfRange, safe(text))], .usage)
        case .noSuchDate(let text): return ([l.string(.errorNoSuchDate, safe(text))], .usage)
        case .changeRefused(.oversized(field: "author")), .changeRefused(.unsafeText(field: "author")):
            return ([l.string(.errorUserNameRefused)], .usage)
        case .changeRefused(.oversized):
            return ([l.string(.errorChangeTooLarge, .number(EventProblem.lineLimit >> 20))], .usage)
        case .changeRefused(.badAssignee): return ([l.string(.errorChangeBadAssignee)], .usage)
        case .changeRefused: return ([l.string(.errorChangeRefused)], .usage)
        default: return ([l.string(.errorInternal, safe(String(describing: error)))], .internalError)
        }
    }

    /// Undo and redo refused (1).
    private static func describeUndo(_ error: PMError, _ l: Localizer, when: (String) -> String, reader: String?) -> (
        lines: [String], status: ExitStatus
    ) {
        let safe = { (text: String) in MessageArgument.text(TextSafety.escaped(text)) }
        switch error {
        case .nothingToUndo: return ([l.string(.errorNothingToUndo)], .refused)
        case .nothingToRedo: return ([l.string(.errorNothingToRedo)], .refused)
        case .undoConflict(let conflict):
            var lines: [String]
            if let by = conflict.by, let at = conflict.at {
                // The reader's own later change (from another machine) is "you", never their name.
                let you = by == reader
                let key: L10nKey
                switch (conflict.deleted, conflict.redo) {
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
                lines = [
                    l.string(conflict.redo ? .errorRedoConflictUnknown : .errorUndoConflictUnknown, safe(conflict.title))
                ]
            }
            if !conflict.redo { lines.append(l.string(.errorUndoSkipHint)) }
            return (lines, .refused)
        default: return ([l.string(.errorInternal, safe(String(describing: error)))], .internalError)
        }
    }

    /// Damaged or foreign data: the board, its log, the state files, an import (65).
    private static func describeData(_ error: PMError, _ l: Localizer) -> (lines: [String], status: ExitStatus) {
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
            return ([message, l.string(.errorBoardCorruptHint)], .badData)
        case .logCorrupt(let path, let line, let column, let reason):
            // A log's line, not the file, is what is empty there.
            let why = reason == .empty ? l.string(.corruptEmptyLine) : describe(reason, l)
            let message = l.string(.errorLogCorrupt, safe(path), .number(line), .number(column), .text(why))
            return ([message, l.string(.errorBoardCorruptHint)], .badData)
        case .otherBoard(let path, let found, let expected):
            return ([l.string(.errorOtherBoard, safe(path), .text(found.rawValue), .text(expected.rawValue))], .badData)
        case .notThisBoard(let path): return ([l.string(.errorNotThisBoard, safe(path))], .badData)
        case .mergeOldFormat(let path): return ([l.string(.errorMergeOldFormat, safe(path))], .badData)
        case .mergeNoLog(let path, let log): return ([l.string(.errorMergeNoLog, safe(path), safe(log))], .badData)
        case .newerSchema(let path, let found, let supported):
            return ([l.string(.errorNewerSchema, safe(path), .number(found), .number(supported))], .badData)
        case .stateCorrupt(let path, let line?, let column?, let reason?, let file):
            let key: L10nKey =
                switch file {
                case .reminderLog: .errorReminderLogCorrupt
                case .syncState: .errorSyncStateCorruptAt
                case .newsMark: .errorNewsMarkCorruptAt
                default: .errorStateCorruptAt
                }
            return ([l.string(key, safe(path), .number(line), .number(column), .text(describe(reason, l)))], .badData)
        case .stateCorrupt(let path, _, _, _, let file):
            return ([l.string(file == .newsMark ? .errorNewsMarkCorrupt : .errorStateCorrupt, safe(path))], .badData)
        case .importRefused(let path, let line?, let column?, let problem):
            let why = MessageArgument.text(describe(problem, l))
            return ([l.string(.errorImportRefusedAt, safe(path), .number(line), .number(column), why)], .badData)
        case .importRefused(let path, _, _, let problem):
            return ([l.string(.errorImportRefused, safe(path), .text(describe(problem, l)))], .badData)
        default: return ([l.string(.errorInternal, safe(String(describing: error)))], .internalError)
        }
    }

    /// Files pm cannot read, write or lock (70, 73, 74, 75).
    private static func describeFiles(_ error: PMError, _ l: Localizer) -> (lines: [String], status: ExitStatus) {
        let safe = { (text: String) in MessageArgument.text(TextSafety.escaped(text)) }
        switch error {
        case .notARegularFile(let path): return ([l.string(.errorBoardNotAFile, safe(path))], .ioError)
        case .locked(let holder?) where !holder.isPM:
            return ([l.string(.errorLockedOther, .number(Int(holder.pid)))], .locked)
        case .locked(let holder?):
            if let host = holder.host {
                return ([l.string(.errorLockedRemote, .number(Int(holder.pid)), safe(host))], .locked)
            }
            return ([l.string(.errorLocked, .number(Int(holder.pid)))], .locked)
        case .locked(nil): return ([l.string(.errorLockedUnknown)], .locked)
        case .unsafeFile(let path): return ([l.string(.errorUnsafeFile, safe(path))], .ioError)
        case .cannotSign(let path): return ([l.string(.errorCannotSign, safe(path))], .ioError)
        case .readFailed(let path, let call):
            return ([l.string(.errorCannotRead, safe(path), .text(describe(call, l)))], .ioError)
        case .createFailed(let path, let call):
            return ([l.string(.errorCannotCreate, safe(path), .text(describe(call, l)))], .cannotCreate)
        case .saveFailed(let path, let call, let file):
            let key: L10nKey
            switch file {
            case .board: key = .errorCannotSave
            case .undoState: key = .errorCannotSaveUndo
            case .reminderLog: key = .errorCannotSaveReminders
            case .output: key = .errorCannotWrite
            case .syncState: key = .errorCannotSaveSync
            case .newsMark: key = .errorCannotSaveNews
            }
            return ([l.string(key, safe(path), .text(describe(call, l)))], .ioError)
        case .concurrentModification: return ([l.string(.errorLockedUnknown)], .locked)
        case .unreadableWrite(let path): return ([l.string(.errorUnreadableWrite, safe(path))], .internalError)
        default: return ([l.string(.errorInternal, safe(String(describing: error)))], .internalError)
        }
    }

    static func describe(_ error: SessionError, localizer l: Localizer) -> (lines: [String], status: ExitStatus) {
        let safe = { (text: String) in MessageArgument.text(TextSafety.escaped(text)) }
        switch error {
        case .noRemote: return ([l.string(.errorNoRemote)], .refused)
        case .offline(let target, let waiting):
            let said =
                waiting == 0
                ? l.string(.syncOfflineNothingWaiting, safe(target)) : l.plural(.syncOffline, count: waiting, safe(target))
            return ([said], .locked)
        case .otherBoard(let target, let tasks, let synced, let beside):
            // Named by the remote, with the two ways on, as commands to paste.
            let said = l.plural(
                synced ? .syncOtherBoardChanged : .syncOtherBoard, count: tasks,
                .text(ShellWord.quoted(TextSafety.escaped(target))), .text(ShellWord.quoted(TextSafety.escaped(beside))))
            return ([said], .badData)
        case .importNoSuchList(let name, let file, let lists):
            return (
                [
                    l.string(
                        .errorImportNoSuchList, safe(name), safe(file),
                        .text(lists.map { l.string(.importListName, safe($0)) }.joined(separator: ", ")))
                ], .usage
            )
        case .importNoSuchMember(let name, let file, let members) where members.isEmpty:
            return ([l.string(.errorImportNoMembers, safe(name), importFile(file, l))], .usage)
        case .importNoSuchMember(let name, let file, let members):
            return (
                [
                    l.string(
                        .errorImportNoSuchMember, safe(name), importFile(file, l),
                        .text(members.map { l.string(.importListName, safe($0)) }.joined(separator: ", ")))
                ], .usage
            )
        case .remoteLooksLikeOption(let text): return ([l.string(.errorRemoteLooksLikeOption, safe(text))], .usage)
        case .remoteFolderMissing(let text): return ([l.string(.errorRemoteFolderMissing, safe(text))], .usage)
        case .syncFailed(let target, .badRemote(_, let detail)):
            return ([l.string(.errorBadRemote, safe(target), safe(detail))], .badData)
        case .syncFailed(let target, .busy): return ([l.string(.syncBusy, safe(target))], .locked)
        case .syncFailed(let target, .local(let detail)):
            return ([l.string(.syncLocalFailure, safe(target), safe(detail))], .ioError)
        case .syncFailed(let target, .permission(_, let detail)):
            return ([l.string(.syncPermission, safe(target), safe(detail))], .noPermission)
        case .syncFailed(_, .diskFull(let place, let detail)):
            return ([l.string(.syncDiskFull, safe(place), safe(detail))], .ioError)
        case .syncFailed(_, let reason):
            return ([l.string(.errorInternal, safe(String(describing: reason)))], .internalError)
        }
    }

    /// The file an import read, as a message names it (`-`: standard input).
    private static func importFile(_ file: String, _ l: Localizer) -> MessageArgument {
        file == "-" ? .text(l.string(.importStandardInput)) : .text(TextSafety.escaped(file))
    }

    /// A character a title or body cannot hold, named in words (never a Swift escape such as `\u{9}`).
    static func character(_ scalar: Unicode.Scalar, _ l: Localizer) -> String {
        switch scalar {
        case "\t": return l.string(.charTab)
        case "\n": return l.string(.charLineBreak)
        // Not "a line break": a body takes those, and a message saying it
        // cannot hold one while they are fine reads as nonsense.
        case "\r": return l.string(.charCarriageReturn)
        case "\u{1B}": return l.string(.charEscape)
        default:
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return l.string(.charControl, .text("U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex))
        }
    }

    static func describe(_ reason: CorruptionReason, _ l: Localizer) -> String {
        switch reason {
        case .empty: return l.string(.corruptEmpty)
        case .truncated: return l.string(.corruptTruncated)
        case .syntax: return l.string(.corruptSyntax)
        case .conflictMarkers: return l.string(.corruptConflictMarkers)
        case .invalidUTF8(let offset): return l.string(.corruptUtf8, .number(offset))
        case .field(let name): return l.string(.corruptField, .text(TextSafety.escaped(name)))
        case .duplicateID(let id): return l.string(.corruptDuplicateID, .text(id.rawValue))
        case .duplicateKey(let key): return l.string(.corruptDuplicateKey, .text(TextSafety.escaped(key)))
        }
    }

    static func describe(_ problem: ImportProblem, _ l: Localizer) -> String {
        let safe = { (text: String) in MessageArgument.text(TextSafety.escaped(text)) }
        switch problem {
        case .empty: return l.string(.corruptEmpty)
        case .invalidUTF8: return l.string(.importProblemUtf8)
        case .syntax: return l.string(.importProblemSyntax)
        case .truncated: return l.string(.corruptTruncated)
        case .duplicateKey(let key): return l.string(.corruptDuplicateKey, safe(key))
        case .tooDeep(let limit): return l.string(.importProblemTooDeep, .number(limit))
        case .tooLarge(let limit): return l.string(.importProblemTooLarge, .number(limit >> 20))
        case .tooManyCards(let limit): return l.string(.importProblemTooMany, .number(limit))
        case .notAFile: return l.string(.importProblemNotAFile)
        case .tooManyValues(let limit): return l.string(.importProblemTooManyValues, .number(limit))
        case .notA(.trello): return l.string(.importProblemNotTrello)
        case .notA(.taskwarrior): return l.string(.importProblemNotTaskwarrior)
        case .notA(.csv): return l.string(.importProblemNotCsv)
        case .field(let name): return l.string(.corruptField, safe(name))
        case .emptyTitle: return l.string(.importProblemEmptyTitle)
        case .unsafeCharacter(let scalar): return l.string(.importProblemUnsafe, .text(character(scalar, l)))
        case .badDate(let text): return l.string(.importProblemDate, safe(text))
        case .badState(let text): return l.string(.importProblemState, safe(text), .text(acceptedStates(l)))
        case .duplicateID(let id): return l.string(.importProblemDuplicate, safe(id))
        }
    }

    static func describe(_ error: SystemCallError, _ l: Localizer) -> String {
        switch error.code {
        case EACCES, EPERM: return l.string(.ioAccessDenied)
        case ENOENT, ENOTDIR: return l.string(.ioMissing)
        case ENOSPC, EDQUOT: return l.string(.ioNoSpace)
        case EROFS: return l.string(.ioReadOnly)
        case EISDIR: return l.string(.ioIsDirectory)
        case EIO: return l.string(.ioDeviceFailed)
        case EBADF: return l.string(.ioNotOpen)
        case ENAMETOOLONG: return l.string(.ioNameTooLong)
        case ELOOP: return l.string(.ioTooManyLinks)
        default: return l.string(.ioUnknown, .number(Int(error.code)))
        }
    }

    /// The accepted date forms, with the reader's words and an example of their short date.
    static func dateForms(_ l: Localizer, formatLocale: String) -> String {
        let example = CivilDate(year: 2026, month: 12, day: 1).map { LocalDateFormat(locale: formatLocale).example($0) } ?? ""
        let first = { (key: L10nKey) in String(l.string(key).split(separator: "|").first ?? "") }
        return l.string(
            .errorDateForms, .text(first(.dateToday)), .text(first(.dateTomorrow)), .text(example),
            .text(first(.dateDayAfterTomorrow)), .text(first(.dateFriday)))
    }

    static func acceptedStates(_ l: Localizer) -> String {
        TaskState.allCases.map { "\($0.rawValue) (\(l.string(StateNames.key($0))))" }.joined(separator: ", ")
    }
}
