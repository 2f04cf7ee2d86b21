import ArgumentParser
import PMCore
import PMICU
import PMLocalization

/// `pm l10n new LANG [DIR]`: a new language's tables in `DIR/LANG.lproj/`,
/// every message with its English text and comment, values empty, plurals
/// with the forms the language's rules need. Never over an existing table.
struct L10nNew: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "new", abstract: help(.helpCommandL10nNew))
    }

    @Argument(help: ArgumentHelp(help(.helpL10nLanguage))) var language: String
    @Argument(help: ArgumentHelp(help(.helpL10nNewDir))) var directory: String = "."

    func run() throws {
        let l = ProcessContext.localizer
        guard Self.isLanguageName(language), language != "en" else { throw CLIError.badLanguage(language) }
        let folder = directory + "/" + language + ".lproj"
        let categories = TableChecker.categories(for: language)
        let english = TableSource.shippedBytes(for: "en") ?? []
        let strings = TableTemplate.strings(language: language, english: english, version: PMVersion.string)
        let plurals = TableTemplate.plurals(
            language: language, english: TableSource.shippedPluralBytes(for: "en") ?? [], categories: categories)
        try Self.write(folder: folder, strings: strings, plurals: plurals)
        let output = Output()
        let messages = StringsTableParser.parse(bytes: english).entries.count
        output.line(
            l.string(
                .l10nNewWritten, .text(TextSafety.escaped(folder)), .number(messages),
                .number(L10nPluralKey.allCases.count), .text(categories.joined(separator: ", ")),
                .text(TextSafety.escaped(directory)), .text(language)))
        try output.flush()
    }

    /// Writes a new table's two files into `folder` (made if need be),
    /// never over a table that is there; a failure leaves neither file.
    static func write(folder: String, strings: String, plurals: String) throws {
        let files = PosixFileSystem()
        do {
            try files.createDirectories(folder)
        } catch let error as SystemCallError {
            throw PMError.createFailed(path: folder, error)
        }
        try FileExport.create(strings, at: folder + "/Localizable.strings")
        do {
            try FileExport.create(plurals, at: folder + "/Localizable.stringsdict")
        } catch {
            try? files.remove(folder + "/Localizable.strings")
            throw error
        }
    }

    /// A language's folder name: letters, then `_` or `-` parts of letters
    /// and digits (`de`, `pt_BR`, `sr_Latn`, `zh-Hant`), never a path.
    static func isLanguageName(_ text: String) -> Bool {
        let parts = text.split(separator: "_", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "-", omittingEmptySubsequences: false)
        }
        guard let first = parts.first, (2...3).contains(first.count),
            first.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) })
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (2...8).contains(part.count)
                && part.unicodeScalars.allSatisfy {
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                }
        }
    }
}

/// `pm l10n pseudo [DIR] [--language CODE]`: a complete table of a
/// pseudo-language (`en_XA` unless named), English accented, lengthened and
/// bracketed, to try pm in a language without building it.
struct L10nPseudo: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "pseudo", abstract: help(.helpCommandL10nPseudo))
    }

    @Argument(help: ArgumentHelp(help(.helpL10nNewDir))) var directory: String = "."
    @Option(help: ArgumentHelp(help(.helpL10nPseudoLanguage))) var language = "en_XA"

    func run() throws {
        let l = ProcessContext.localizer
        guard L10nNew.isLanguageName(language), language != "en" else { throw CLIError.badLanguage(language) }
        let folder = directory + "/" + language + ".lproj"
        let categories = TableChecker.categories(for: language)
        let english = TableSource.shippedBytes(for: "en") ?? []
        try L10nNew.write(
            folder: folder, strings: PseudoTable.strings(language: language, english: english, version: PMVersion.string),
            plurals: PseudoTable.plurals(
                language: language, english: TableSource.shippedPluralBytes(for: "en") ?? [], categories: categories))
        let output = Output()
        output.line(
            l.string(
                .l10nPseudoWritten, .text(TextSafety.escaped(folder)), .text(TextSafety.escaped(directory)), .text(language)))
        try output.flush()
    }
}
