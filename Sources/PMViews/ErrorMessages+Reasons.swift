import PMCore
import PMICU
import PMKit
import PMLocalization

#if canImport(Glibc)
    import Glibc
#endif

/// The words inside a message: why a file is damaged or an import refused,
/// what a system call said, a character named, the forms a date or a
/// column may take.
extension ErrorMessages {
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
        case .badPriority(let text): return l.string(.importProblemPriority, safe(text), .text(PriorityNames.accepted(l)))
        case .duplicateID(let id): return l.string(.importProblemDuplicate, safe(id))
        }
    }

    package static func describe(_ error: SystemCallError, _ l: Localizer) -> String {
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
        case EEXIST: return l.string(.ioExists)
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
        l.list(TaskState.allCases.map { "\($0.rawValue) (\(l.string(StateNames.key($0))))" })
    }
}
