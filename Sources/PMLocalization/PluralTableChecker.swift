import PMICU
import PMText

/// English's plurals (its `.stringsdict`), the reference each translation's
/// plurals are checked against: every plural English has, with the forms
/// each language's rules need, the placeholders of English's `other`, and a
/// count left out only where the form's category holds that count alone.
struct PluralReference {
    /// Where English's plurals are, for a problem of a translation that lacks one.
    var path: String
    var entries: [String: StringsDictEntry] = [:]
    /// English's `other` of each plural, the placeholders every form must have.
    var formats: [String: MessageFormat] = [:]
    /// English's own problems.
    var problems: [TableProblem] = []

    init(_ file: PluralFile?) {
        path = file?.path ?? "Localization/en.lproj/Localizable.stringsdict"
        guard let file else { return }
        let parsed = StringsDictParser.parse(bytes: file.bytes)
        problems = parsed.problems.map { TableProblem(path: file.path, line: $0.line, kind: .pluralSyntax($0.kind)) }
        for entry in parsed.entries {
            entries[entry.key] = entry
            if let other = entry.suffixedForms.first(where: { $0.key == entry.key + ".other" }),
                let format = try? MessageFormat(parsing: other.value)
            {
                formats[entry.key] = format
            }
        }
        problems += Self.entryProblems(parsed.entries, language: "en", path: file.path, reference: formats)
    }

    /// The problems of a translation's `.stringsdict` (nil: it has none, so
    /// every plural is missing).
    func check(_ file: PluralFile?, language: String, elisions: Set<String> = []) -> [TableProblem] {
        var problems: [TableProblem] = []
        var seen = Set<String>()
        if let file {
            let parsed = StringsDictParser.parse(bytes: file.bytes)
            problems += parsed.problems.map { TableProblem(path: file.path, line: $0.line, kind: .pluralSyntax($0.kind)) }
            var known: [StringsDictEntry] = []
            for entry in parsed.entries {
                guard entries[entry.key] != nil else {
                    problems.append(TableProblem(path: file.path, line: entry.line, kind: .notInEnglish(entry.key)))
                    continue
                }
                seen.insert(entry.key)
                known.append(entry)
            }
            problems += Self.entryProblems(
                known, language: language, path: file.path, reference: formats, elisions: elisions)
            // A table that did not parse at all is one problem, not one per plural.
            if parsed.entries.isEmpty && !parsed.problems.isEmpty { return problems }
        }
        for entry in entries.values.sorted(by: { $0.line < $1.line }) where !seen.contains(entry.key) {
            problems.append(TableProblem(path: path, line: entry.line, kind: .missingKey(entry.key, language: language)))
        }
        return problems
    }

    /// Each plural's problems: its format, its forms' categories, characters
    /// and placeholders, a count left out where it cannot be, and the
    /// categories `language` needs.
    static func entryProblems(
        _ entries: [StringsDictEntry], language: String, path: String, reference: [String: MessageFormat],
        elisions: Set<String> = []
    ) -> [TableProblem] {
        let profile = PluralProfile(language: language)
        let needed = profile?.categories ?? ["other"]
        var problems: [TableProblem] = []
        for entry in entries {
            let problem = { (kind: TableProblem.Kind) in TableProblem(path: path, line: entry.line, kind: kind) }
            guard let variable = entry.pluralVariable else {
                problems.append(problem(.pluralFormat(entry.key)))
                continue
            }
            for category in variable.forms.keys.sorted() {
                if !StringsDictEntry.categories.contains(category) {
                    problems.append(problem(.unknownCategory(entry.key, category: category)))
                } else if let profile, !profile.categories.contains(category) {
                    problems.append(problem(.unusedCategory(entry.key, category: category, language: language)))
                }
            }
            for (key, value) in entry.suffixedForms {
                let category = String(key.dropFirst(entry.key.count + 1))
                guard !value.isEmpty else { continue }
                if let scalar = value.unicodeScalars.first(where: { $0 != "\n" && TextSafety.isUnsafe($0) }) {
                    problems.append(problem(.unsafeCharacter(key, scalar)))
                }
                let found = TableChecker.formatProblems(
                    key, value, expected: reference[entry.key], countMayBeOmitted: true, elisions: elisions, path: path,
                    line: entry.line)
                problems += found
                let alone = profile.map { $0.soleCount[category] != nil } ?? (category == "one")
                let format = try? MessageFormat(parsing: value, countMayBeOmitted: true, elisions: elisions)
                if found.isEmpty, !alone, format?.omitsCount == true {
                    problems.append(problem(.formWithoutCount(entry.key, category: category, language: language)))
                }
            }
            for category in needed where variable.forms[category] == nil {
                problems.append(problem(.missingPlural(entry.key, category: category, language: language)))
            }
        }
        return problems
    }
}
