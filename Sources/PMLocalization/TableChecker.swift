import PMICU

/// One problem `pm l10n check` reports, at a file and line.
public struct TableProblem: Equatable, Sendable {
    /// What is wrong.
    public enum Kind: Equatable, Sendable {
        /// The file does not parse there.
        case syntax(StringsTableProblem.Kind)
        /// A key of English is missing from `language`.
        case missingKey(String, language: String)
        /// A key that English does not have.
        case notInEnglish(String)
        /// Placeholders that differ from English's (types by position).
        case placeholderMismatch(String, found: [PlaceholderType], expected: [PlaceholderType])
        /// A `%` sequence pm does not accept (`%n`, `%s`…).
        case badSpecifier(String, MessageFormat.Problem)
        /// A plural form the language's rules need is missing.
        case missingPlural(String, category: String, language: String)
        /// A value holds a control, escape or bidi character (shown escaped at run time).
        case unsafeCharacter(String, Unicode.Scalar)
        /// The `.stringsdict` does not parse there.
        case pluralSyntax(StringsDictProblem.Kind)
        /// A plural whose format is not one variable (`%#@count@`) with its forms.
        case pluralFormat(String)
        /// A plural form under a name that is not one of CLDR's categories.
        case unknownCategory(String, category: String)
        /// A form of a category the language's rules never use (Korean `one`).
        case unusedCategory(String, category: String, language: String)
        /// A form that leaves the count out, in a category that holds several counts.
        case formWithoutCount(String, category: String, language: String)
        /// A plural form (`key.one`) in the `.strings`: plurals belong in the `.stringsdict`.
        case pluralInStrings(String)
    }

    public var path: String
    public var line: Int
    public var kind: Kind

    public init(path: String, line: Int, kind: Kind) {
        self.path = path
        self.line = line
        self.kind = kind
    }
}

/// A table to check: its language, the path to show, and its raw bytes;
/// and the `.stringsdict` of plurals beside it, when there is one.
public struct TableFile: Sendable {
    public var language: String
    public var path: String
    public var bytes: [UInt8]
    public var plurals: PluralFile?

    public init(language: String, path: String, bytes: [UInt8], plurals: PluralFile? = nil) {
        self.language = language
        self.path = path
        self.bytes = bytes
        self.plurals = plurals
    }
}

/// A `.stringsdict` to check: the path to show and its raw bytes.
public struct PluralFile: Sendable {
    public var path: String
    public var bytes: [UInt8]

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }
}

/// The translators' checker: every problem of every table, collected before
/// reporting, each with its file and line.
public enum TableChecker {
    static let pluralCategories = ["zero", "one", "two", "few", "many", "other"]

    /// Checks `tables` against `english` (which is checked too).
    public static func check(english: TableFile, tables: [TableFile]) -> [TableProblem] {
        let reference = StringsTableParser.parse(bytes: english.bytes)
        var problems = syntaxProblems(reference, path: english.path) + unsafeValues(reference, path: english.path)
        var referenceFormats: [String: MessageFormat] = [:]
        for entry in reference.entries {
            do {
                referenceFormats[entry.key] = try MessageFormat(parsing: entry.value)
            } catch let problem as MessageFormat.Problem {
                problems.append(TableProblem(path: english.path, line: entry.line, kind: .badSpecifier(entry.key, problem)))
            } catch {}
        }
        let plurals = PluralReference(english.plurals)
        problems += plurals.problems
        for table in tables where table.language != "en" {
            let parsed = StringsTableParser.parse(bytes: table.bytes)
            problems += syntaxProblems(parsed, path: table.path) + unsafeValues(parsed, path: table.path)
            let keys = Set(parsed.entries.map(\.key))
            let elisions = Grammar.elisions(parsed.values["grammar.elisions"])
            for entry in parsed.entries {
                guard let expected = referenceFormats[entry.key] else {
                    let isPluralForm = pluralBase(of: entry.key).map { plurals.entries[$0] != nil } ?? false
                    let kind: TableProblem.Kind = isPluralForm ? .pluralInStrings(entry.key) : .notInEnglish(entry.key)
                    problems.append(TableProblem(path: table.path, line: entry.line, kind: kind))
                    continue
                }
                // Empty is not yet translated: `pm l10n status` counts it, English is shown.
                guard !entry.value.isEmpty else { continue }
                problems += formatProblems(
                    entry.key, entry.value, expected: expected, elisions: elisions, path: table.path, line: entry.line)
            }
            for entry in reference.entries where !keys.contains(entry.key) {
                problems.append(
                    TableProblem(path: english.path, line: entry.line, kind: .missingKey(entry.key, language: table.language)))
            }
            problems += plurals.check(table.plurals, language: table.language, elisions: elisions)
        }
        return problems
    }

    /// A value's format problems: a `%` pm does not accept, or placeholders
    /// other than `expected`'s.
    static func formatProblems(
        _ key: String, _ value: String, expected: MessageFormat?, countMayBeOmitted: Bool = false,
        elisions: Set<String> = [], path: String, line: Int
    ) -> [TableProblem] {
        do {
            let format = try MessageFormat(parsing: value, countMayBeOmitted: countMayBeOmitted, elisions: elisions)
            guard let expected, format.signature != expected.signature else { return [] }
            return [
                TableProblem(
                    path: path, line: line,
                    kind: .placeholderMismatch(key, found: format.signature, expected: expected.signature))
            ]
        } catch let problem as MessageFormat.Problem {
            return [TableProblem(path: path, line: line, kind: .badSpecifier(key, problem))]
        } catch {
            return []
        }
    }

    /// The plural categories a language's rules give whole counts.
    public static func categories(for language: String) -> [String] {
        PluralProfile(language: language)?.categories ?? ["other"]
    }

    static func syntaxProblems(_ table: ParsedStringsTable, path: String) -> [TableProblem] {
        table.problems.map { TableProblem(path: path, line: $0.line, kind: .syntax($0.kind)) }
    }

    /// Values that would send a control, escape or bidi character to the
    /// terminal (a newline is how a message breaks lines, and is allowed).
    static func unsafeValues(_ table: ParsedStringsTable, path: String) -> [TableProblem] {
        table.entries.compactMap { entry in
            guard let scalar = entry.value.unicodeScalars.first(where: { $0 != "\n" && TextSafety.isUnsafe($0) }) else {
                return nil
            }
            return TableProblem(path: path, line: entry.line, kind: .unsafeCharacter(entry.key, scalar))
        }
    }

    static func pluralBase(of key: String) -> String? {
        guard let dot = key.lastIndex(of: "."), pluralCategories.contains(String(key[key.index(after: dot)...])) else {
            return nil
        }
        return String(key[..<dot])
    }

}
