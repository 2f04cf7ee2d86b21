import PMCore
import PMICU
import PMKit
import PMLocalization
import PMSync
import PMViews

/// Turns every error into a localized message and an exit code (DESIGN.md
/// §10): the words of the board's errors are PMViews' `ErrorMessages`, which
/// every front end says; the exit codes and the command line's own errors
/// (`CLIError`) are the terminal's, here.
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
        if let error = error as? CLIError { return describe(error, localizer: l) }
        let lines = ErrorMessages.lines(for: error, localizer: l, when: when, formatLocale: formatLocale, reader: reader)
        return (lines, status(of: error))
    }

    /// The command line's own errors: the environment, options, the terminal, standard output.
    static func describe(_ error: CLIError, localizer l: Localizer) -> (lines: [String], status: ExitStatus) {
        switch error {
        case .invalidEnvironment(let name, let value):
            return ([l.string(.errorInvalidEnvironment, .text(name), .text(TextSafety.escaped(value)))], .usage)
        case .dueAndNoDue: return ([l.string(.errorDueAndNoDue)], .usage)
        case .nothingToEdit: return ([l.string(.errorNothingToEdit)], .usage)
        case .recurNeedsRule: return ([l.string(.errorRecurNeedsRule)], .usage)
        case .invalidLimit(let value): return ([l.string(.errorInvalidLimit, .number(value))], .usage)
        case .argumentNotUTF8(let position): return ([l.string(.errorArgumentNotUTF8, .number(position))], .usage)
        case .boardNeedsTerminal: return ([l.string(.errorBoardNeedsTerminal)], .usage)
        case .boardDumbTerminal(let term):
            return ([l.string(.errorBoardDumbTerminal, .text(term.isEmpty ? "—" : TextSafety.escaped(term)))], .usage)
        case .csvDelimiter(let text): return ([l.string(.errorCsvDelimiter, .text(TextSafety.escaped(text)))], .usage)
        case .csvHeaders(let text): return ([l.string(.errorCsvHeaders, .text(TextSafety.escaped(text)))], .usage)
        case .importMember(let text): return ([l.string(.errorImportMember, .text(TextSafety.escaped(text)))], .usage)
        case .importMap(let text): return ([l.string(.errorImportMap, .text(TextSafety.escaped(text)))], .usage)
        case .servePort(let port): return ([l.string(.errorServePort, .text(String(port)))], .usage)
        case .serveAddress(let text): return ([l.string(.errorServeAddress, .text(TextSafety.escaped(text)))], .usage)
        case .serveNeedsInvites(let text): return ([l.string(.errorServeNeedsInvites, .text(TextSafety.escaped(text)))], .usage)
        case .serveMissing(let path): return ([l.string(.errorServeMissing, .text(TextSafety.escaped(path)))], .internalError)
        case .serveInviteAddress: return ([l.string(.errorServeInviteAddress)], .usage)
        case .serveTLSPair: return ([l.string(.errorServeTLSPair)], .usage)
        case .serveAnyAddress(let text): return ([l.string(.errorServeAnyAddress, .text(TextSafety.escaped(text)))], .usage)
        case .serveInviteSelf(let name): return ([l.string(.errorServeInviteSelf, .text(TextSafety.escaped(name)))], .usage)
        case .serveNotInvited(let name): return ([l.string(.errorServeNotInvited, .text(TextSafety.escaped(name)))], .refused)
        case .checkAction(let text): return ([l.string(.errorCheckAction, .text(TextSafety.escaped(text)))], .usage)
        case .checkArguments(let action):
            let form: L10nKey =
                switch action {
                case "add": .checkFormAdd
                case "rename": .checkFormRename
                case "move": .checkFormMove
                default: .checkFormItem
                }
            return ([l.string(.errorCheckArguments, .text(action), .text(l.string(form)))], .usage)
        case .checkPlace(let text, let count):
            return ([l.string(.errorCheckPlace, .text(TextSafety.escaped(text)), .number(count))], .usage)
        case .commentOptions: return ([l.string(.errorCommentOptions)], .usage)
        case .badLanguage(let text): return ([l.string(.errorBadLanguage, .text(TextSafety.escaped(text)))], .usage)
        case .outputFailed(let call, let done):
            let why = MessageArgument.text(ErrorMessages.describe(call, l))
            switch done {
            case .nothing: return ([l.string(.errorOutputFailed, why)], .ioError)
            case .changedBoard: return ([l.string(.errorOutputFailedAfterChange, why)], .ioError)
            case .wroteFile(let path):
                return ([l.string(.errorOutputFailedAfterWrite, .text(TextSafety.escaped(path)), why)], .ioError)
            }
        }
    }

    /// How pm ends after `error` (a board's or a session's; anything else is internal).
    static func status(of error: Error) -> ExitStatus {
        switch error {
        case let error as PMError: return status(of: error)
        case let error as SessionError: return status(of: error)
        case ServeError.cannotListen: return .cannotCreate
        case ServeError.tls: return .ioError
        default: return .internalError
        }
    }

    /// A case each, with no default: a new error does not compile until it has its code.
    static func status(of error: PMError) -> ExitStatus {
        switch error {
        case .taskNotFound, .ambiguousID, .invalidID, .unknownState: return .refused
        case .invalidDate, .emptyTitle, .titleTooLong, .bodyTooLong, .unsafeTitle, .badAssignee, .tooManyAssignees,
            .unsafeBody, .dateOutOfRange, .noSuchDate, .changeRefused, .badTime, .unknownZone:
            return .usage
        case .badLabel, .unknownPriority, .tooMany, .emptyText, .textTooLong, .unsafeText: return .usage
        case .partNotFound, .notYourComment, .viewNotFound: return .refused
        case .badViewName, .badRule: return .usage
        case .nothingToUndo, .nothingToRedo, .undoConflict: return .refused
        case .boardCorrupt, .logCorrupt, .otherBoard, .notThisBoard, .mergeOldFormat, .mergeNoLog, .newerSchema,
            .stateCorrupt, .importRefused:
            return .badData
        case .notARegularFile, .unsafeFile, .cannotSign, .readFailed, .saveFailed: return .ioError
        case .createFailed: return .cannotCreate
        case .locked, .concurrentModification: return .locked
        case .unreadableWrite: return .internalError
        }
    }

    static func status(of error: SessionError) -> ExitStatus {
        switch error {
        case .noRemote: return .refused
        case .offline: return .locked
        case .otherBoard: return .badData
        case .importNoSuchList, .importNoSuchMember, .remoteLooksLikeOption, .remoteFolderMissing, .inviteLookalike:
            return .usage
        case .syncFailed(_, let reason):
            switch reason {
            case .badRemote: return .badData
            case .busy: return .locked
            case .local, .diskFull: return .ioError
            case .permission: return .noPermission
            case .unreachable, .rejected, .otherBoard: return .internalError
            }
        }
    }
}
