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

/// A table to check: its language, the path to show, and its raw bytes.
public struct TableFile: Sendable {
    public var language: String
    public var path: String
    public var bytes: [UInt8]

    public init(language: String, path: String, bytes: [UInt8]) {
        self.language = language
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
        let englishKeys = Set(reference.entries.map(\.key))
        let bases = pluralBases(of: englishKeys)
        for table in tables where table.language != "en" {
            let parsed = StringsTableParser.parse(bytes: table.bytes)
            problems += syntaxProblems(parsed, path: table.path) + unsafeValues(parsed, path: table.path)
            let keys = Set(parsed.entries.map(\.key))
            for entry in parsed.entries {
                let base = pluralBase(of: entry.key)
                let isPluralForm = base.map { bases.contains($0) } ?? false
                guard englishKeys.contains(entry.key) || isPluralForm else {
                    problems.append(TableProblem(path: table.path, line: entry.line, kind: .notInEnglish(entry.key)))
                    continue
                }
                let expected = referenceFormats[entry.key] ?? base.flatMap { referenceFormats[$0 + ".other"] }
                do {
                    let format = try MessageFormat(parsing: entry.value)
                    if let expected, format.signature != expected.signature {
                        problems.append(
                            TableProblem(
                                path: table.path, line: entry.line,
                                kind: .placeholderMismatch(entry.key, found: format.signature, expected: expected.signature)))
                    }
                } catch let problem as MessageFormat.Problem {
                    problems.append(TableProblem(path: table.path, line: entry.line, kind: .badSpecifier(entry.key, problem)))
                } catch {}
            }
            for entry in reference.entries where pluralBase(of: entry.key) == nil && !keys.contains(entry.key) {
                problems.append(
                    TableProblem(path: english.path, line: entry.line, kind: .missingKey(entry.key, language: table.language)))
            }
            let needed = categories(for: table.language)
            for base in bases.sorted() {
                let line = reference.entries.first { $0.key.hasPrefix(base + ".") }?.line ?? 1
                for category in needed where !keys.contains(base + "." + category) {
                    problems.append(
                        TableProblem(
                            path: table.path, line: line, kind: .missingPlural(base, category: category, language: table.language)
                        ))
                }
            }
        }
        return problems
    }

    /// The plural categories a language's rules give whole counts from 0 to 1,000.
    public static func categories(for language: String) -> [String] {
        guard let rules = ICUPluralRules(locale: language) else { return ["other"] }
        var found = Set<String>()
        for count in 0...1000 { found.insert(rules.category(for: count)) }
        return pluralCategories.filter(found.contains)
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

    static func pluralBases(of keys: Set<String>) -> Set<String> {
        Set(keys.compactMap(pluralBase))
    }
}
