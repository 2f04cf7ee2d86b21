import ArgumentParser
import Glibc
import PMCore
import PMICU
import PMKit
import PMLocalization

struct L10n: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "l10n", abstract: help(.helpCommandL10n),
            subcommands: [L10nCheck.self, L10nStatus.self, L10nNew.self, L10nPseudo.self])
    }
}

/// `pm l10n check [DIR]`: one `PATH:LINE: message` line per problem, exit 65
/// unless every table is clean.
struct L10nCheck: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "check", abstract: help(.helpCommandL10nCheck))
    }

    @Argument(help: ArgumentHelp(help(.helpDir))) var directory: String?

    func run() throws {
        let l = ProcessContext.localizer
        let output = Output()
        let tables = try Self.tables(in: directory)
        let english = tables.first { $0.language == "en" } ?? Self.shipped("en", TableSource.shippedBytes(for: "en") ?? [])
        let problems = TableChecker.check(english: english, tables: tables.filter { $0.language != "en" })
        for problem in problems {
            output.line("\(TextSafety.escaped(problem.path)):\(problem.line): \(Self.message(problem.kind, l))")
        }
        guard problems.isEmpty else {
            try output.flush()
            throw ExitCode(ErrorReport.ExitStatus.badData.rawValue)
        }
        output.line(l.plural(.l10nClean, count: tables.count + (tables.contains { $0.language == "en" } ? 0 : 1)))
        try output.flush()
    }

    /// The tables of `directory` (every `*.lproj` with a `Localizable.strings`,
    /// and its `.stringsdict`), or pm's own when nil.
    /// - Throws: ``PMError/readFailed(path:_:)`` when `directory` holds none.
    static func tables(in directory: String?) throws -> [TableFile] {
        guard let directory else {
            return TableSource.shippedLanguages.compactMap { language in
                TableSource.shippedBytes(for: language).map { shipped(language, $0) }
            }
        }
        let files = PosixFileSystem()
        var tables: [TableFile] = []
        for name in ((try? files.contentsOfDirectory(directory)) ?? []).sorted() where name.hasSuffix(".lproj") {
            let path = directory + "/" + name + "/Localizable.strings"
            guard let bytes = try? files.readFile(path) else { continue }
            let pluralPath = directory + "/" + name + "/Localizable.stringsdict"
            let plurals = (try? files.readFile(pluralPath)).map { PluralFile(path: pluralPath, bytes: $0) }
            tables.append(TableFile(language: String(name.dropLast(6)), path: path, bytes: bytes, plurals: plurals))
        }
        guard !tables.isEmpty else {
            throw PMError.readFailed(
                path: directory + "/*.lproj/Localizable.strings", SystemCallError(call: "open", code: ENOENT))
        }
        return tables
    }

    /// A table built into pm, named by the path it was built from.
    static func shipped(_ language: String, _ bytes: [UInt8]) -> TableFile {
        let folder = "Localization/\(language).lproj/Localizable."
        let plurals = TableSource.shippedPluralBytes(for: language).map { PluralFile(path: folder + "stringsdict", bytes: $0) }
        return TableFile(language: language, path: folder + "strings", bytes: bytes, plurals: plurals)
    }

    static func message(_ kind: TableProblem.Kind, _ l: Localizer) -> String {
        let safe = { (text: String) in MessageArgument.text(TextSafety.escaped(text)) }
        switch kind {
        case .syntax(let problem):
            switch problem {
            case .wrongEncoding(let offset): return l.string(.l10nWrongEncoding, .number(offset))
            case .unterminatedComment: return l.string(.l10nUnterminatedComment)
            case .unterminatedString: return l.string(.l10nUnterminatedString)
            case .expectedKey: return l.string(.l10nExpectedKey)
            case .missingEquals: return l.string(.l10nMissingEquals)
            case .missingSemicolon: return l.string(.l10nMissingSemicolon)
            case .expectedValue: return l.string(.l10nExpectedValue)
            case .badEscape(let escape): return l.string(.l10nBadEscape, safe(escape))
            case .duplicateKey(let key, let first): return l.string(.l10nDuplicateKey, safe(key), .number(first))
            }
        case .missingKey(let key, let language): return l.string(.l10nMissingKey, safe(key), safe(language))
        case .notInEnglish(let key): return l.string(.l10nNotInEnglish, safe(key))
        case .placeholderMismatch(let key, let found, let expected):
            return l.string(.l10nPlaceholderMismatch, safe(key), .text(describe(found)), .text(describe(expected)))
        case .badSpecifier(let key, let problem):
            switch problem {
            case .unsupportedSpecifier(let specifier): return l.string(.l10nBadSpecifier, safe(key), safe(specifier))
            case .inconsistentPositions:
                return l.string(.l10nBadSpecifier, safe(key), .text(l.string(.l10nInconsistentPositions)))
            case .badGrammar(let fragment):
                return l.string(.l10nBadGrammar, safe(key), safe(fragment), .text("%1$@을(를), %1$@(으)로, {de} %1$@"))
            }
        case .missingPlural(let key, let category, let language):
            return l.string(.l10nMissingPlural, safe(key), safe(category), safe(language))
        case .unsafeCharacter(let key, let scalar):
            return l.string(.l10nUnsafeCharacter, safe(key), .text(TextSafety.escaped(String(scalar))))
        case .pluralSyntax(let problem): return pluralSyntax(problem, l)
        case .pluralFormat(let key): return l.string(.l10nPluralFormat, safe(key))
        case .unknownCategory(let key, let category): return l.string(.l10nUnknownCategory, safe(key), safe(category))
        case .unusedCategory(let key, let category, let language):
            return l.string(.l10nUnusedCategory, safe(key), safe(category), safe(language))
        case .formWithoutCount(let key, let category, let language):
            return l.string(.l10nFormWithoutCount, safe(key), safe(category), safe(language))
        case .pluralInStrings(let key): return l.string(.l10nPluralInStrings, safe(key))
        }
    }

    static func pluralSyntax(_ problem: StringsDictProblem.Kind, _ l: Localizer) -> String {
        let safe = { (text: String) in MessageArgument.text(TextSafety.escaped(text)) }
        switch problem {
        case .malformed(let expected): return l.string(.l10nPluralMalformed, safe(expected))
        case .unknownEntity(let entity): return l.string(.l10nPluralEntity, safe(entity))
        case .internalSubset: return l.string(.l10nPluralSubset)
        case .incomplete(let key): return l.string(.l10nPluralIncomplete, safe(key))
        case .duplicateKey(let key, let first): return l.string(.l10nDuplicateKey, safe(key), .number(first))
        }
    }

    /// `%1$@, %2$d`: a signature as a translator writes it.
    static func describe(_ signature: [PlaceholderType]) -> String {
        signature.enumerated().map { "%\($0.offset + 1)$" + ($0.element == .text ? "@" : "d") }.joined(separator: ", ")
    }
}
