/// One plural message of a `.stringsdict` table (Apple's plural format, as
/// Xcode, Weblate, Crowdin and Lokalise read it): its format, and for each
/// variable the format names (`%#@count@`), the text of each CLDR category.
public struct StringsDictEntry: Equatable, Sendable {
    /// One variable: `NSStringPluralRuleType`, its value's type (`d`) and
    /// its forms by category (`zero`, `one`, `two`, `few`, `many`, `other`).
    public struct Variable: Equatable, Sendable {
        public var valueType: String?
        public var forms: [String: String]

        public init(valueType: String?, forms: [String: String]) {
            self.valueType = valueType
            self.forms = forms
        }
    }

    public var key: String
    /// `NSStringLocalizedFormatKey`: `%#@count@`, or text around it.
    public var format: String
    public var variables: [String: Variable]
    /// 1-based line of the key.
    public var line: Int
    /// The `<!-- … -->` comment right above the key: the note for translators.
    public var comment: String?

    public init(key: String, format: String, variables: [String: Variable], line: Int, comment: String? = nil) {
        (self.key, self.format, self.variables, self.line, self.comment) = (key, format, variables, line, comment)
    }
}

extension StringsDictEntry {
    /// Its forms as pm's tables keep plurals, one value per category
    /// (`list.header.one`, `list.header.other`): the format with its variable
    /// (`%#@count@`) replaced by that category's text. A format that names
    /// no variable, or several, or one the entry lacks, gives none.
    /// The variable may be written `%#@count@` or, positionally, `%1$#@count@`;
    /// only CLDR's categories (`zero`, `one`, `two`, `few`, `many`, `other`) are forms.
    public var suffixedForms: [(key: String, value: String)] {
        guard let (before, name, after) = Self.variable(in: format), let variable = variables[name] else { return [] }
        var forms: [(key: String, value: String)] = []
        for category in variable.forms.keys.sorted() where Self.categories.contains(category) {
            let text: String = variable.forms[category] ?? ""
            forms.append((key: key + "." + category, value: before + text + after))
        }
        return forms
    }

    /// The one variable the format names (`count` of `%#@count@`), or nil
    /// when it names none, several, or one the entry lacks.
    public var pluralVariable: Variable? {
        Self.variable(in: format).flatMap { variables[$0.1] }
    }

    /// CLDR's plural categories.
    public static let categories: Set<String> = ["zero", "one", "two", "few", "many", "other"]

    /// The text before the one variable a format names, its name, and the
    /// text after; nil for none or several.
    static func variable(in format: String) -> (String, String, String)? {
        let scalars = Array(format.unicodeScalars)
        var found: (String, String, String)?
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "%" else {
                index += 1
                continue
            }
            // `%`, digits and `$` (a position), then `#@name@`.
            var at = index + 1
            while at < scalars.count, ("0"..."9").contains(scalars[at]) { at += 1 }
            if at > index + 1 {
                guard at < scalars.count, scalars[at] == "$" else {
                    index = at
                    continue
                }
                at += 1
            }
            guard at + 1 < scalars.count, scalars[at] == "#", scalars[at + 1] == "@" else {
                index += 1
                continue
            }
            let nameStart = at + 2
            guard let end = scalars[nameStart...].firstIndex(of: "@"), end > nameStart, found == nil else { return nil }
            let text = { (range: Range<Int>) in String(String.UnicodeScalarView(scalars[range])) }
            found = (text(0..<index), text(nameStart..<end), text((end + 1)..<scalars.count))
            index = end + 1
        }
        return found
    }
}

/// A problem in a `.stringsdict` table, with its line.
public struct StringsDictProblem: Error, Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// Not well-formed XML of the plist subset pm reads (what was expected).
        case malformed(String)
        /// An entity other than XML's five and character references.
        case unknownEntity(String)
        /// A DOCTYPE with an internal subset, which could define entities.
        case internalSubset
        /// An entry without `NSStringLocalizedFormatKey`, or a variable without its rule type.
        case incomplete(key: String)
        case duplicateKey(String, firstLine: Int)
    }

    public var line: Int
    public var kind: Kind

    public init(line: Int, kind: Kind) {
        self.line = line
        self.kind = kind
    }
}

/// The result: every good entry, and every problem.
public struct ParsedStringsDict: Sendable {
    public var entries: [StringsDictEntry]
    public var problems: [StringsDictProblem]
}

/// A strict reader of the `.stringsdict` plist: the XML subset Apple's
/// format uses (`plist`, `dict`, `key`, `string`; comments, the XML
/// declaration, a DOCTYPE without an internal subset), in pure Swift. No
/// entity but XML's five and character references is expanded, so a table
/// cannot make the reader expand text without bound; nesting is bounded.
public enum StringsDictParser {
    /// Parses raw UTF-8 bytes (a byte-order mark allowed).
    public static func parse(bytes: [UInt8]) -> ParsedStringsDict {
        var body = bytes
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body.removeFirst(3) }
        guard let text = String(validating: body, as: UTF8.self) else {
            return ParsedStringsDict(entries: [], problems: [StringsDictProblem(line: 1, kind: .malformed("UTF-8"))])
        }
        var reader = XMLReader(Array(text.unicodeScalars))
        do {
            let root = try reader.document()
            return entries(of: root)
        } catch let problem as StringsDictProblem {
            return ParsedStringsDict(entries: [], problems: [problem])
        } catch {
            return ParsedStringsDict(entries: [], problems: [StringsDictProblem(line: reader.line, kind: .malformed("XML"))])
        }
    }

    /// The entries of the `plist` element's one `dict`.
    private static func entries(of root: XMLReader.Element) -> ParsedStringsDict {
        var result = ParsedStringsDict(entries: [], problems: [])
        guard root.name == "plist", root.children.count == 1, let top = root.children.first, top.name == "dict" else {
            result.problems.append(StringsDictProblem(line: root.line, kind: .malformed("<plist><dict>")))
            return result
        }
        var seen: [String: Int] = [:]
        for (key, value) in pairs(top, into: &result.problems) {
            if let first = seen[key.text] {
                result.problems.append(StringsDictProblem(line: key.line, kind: .duplicateKey(key.text, firstLine: first)))
                continue
            }
            seen[key.text] = key.line
            if let entry = entry(key, value, into: &result.problems) { result.entries.append(entry) }
        }
        return result
    }

    /// A `dict`'s `key`/value pairs, in order.
    private static func pairs(_ dict: XMLReader.Element, into problems: inout [StringsDictProblem]) -> [(
        XMLReader.Element, XMLReader.Element
    )] {
        var result: [(XMLReader.Element, XMLReader.Element)] = []
        var index = 0
        while index < dict.children.count {
            let key = dict.children[index]
            guard key.name == "key", index + 1 < dict.children.count else {
                problems.append(StringsDictProblem(line: key.line, kind: .malformed("<key>")))
                return result
            }
            result.append((key, dict.children[index + 1]))
            index += 2
        }
        return result
    }

    private static func entry(
        _ key: XMLReader.Element, _ value: XMLReader.Element, into problems: inout [StringsDictProblem]
    ) -> StringsDictEntry? {
        guard value.name == "dict" else {
            problems.append(StringsDictProblem(line: value.line, kind: .malformed("<dict>")))
            return nil
        }
        var format: String?
        var variables: [String: StringsDictEntry.Variable] = [:]
        for (name, inner) in pairs(value, into: &problems) {
            if name.text == "NSStringLocalizedFormatKey", inner.name == "string" {
                format = inner.text
                continue
            }
            guard inner.name == "dict" else {
                problems.append(StringsDictProblem(line: inner.line, kind: .malformed("<dict>")))
                return nil
            }
            var variable = StringsDictEntry.Variable(valueType: nil, forms: [:])
            var rule: String?
            for (part, text) in pairs(inner, into: &problems) {
                guard text.name == "string" else {
                    problems.append(StringsDictProblem(line: text.line, kind: .malformed("<string>")))
                    return nil
                }
                switch part.text {
                case "NSStringFormatSpecTypeKey": rule = text.text
                case "NSStringFormatValueTypeKey": variable.valueType = text.text
                default: variable.forms[part.text] = text.text
                }
            }
            guard rule == "NSStringPluralRuleType" else {
                problems.append(StringsDictProblem(line: name.line, kind: .incomplete(key: key.text)))
                return nil
            }
            variables[name.text] = variable
        }
        guard let format else {
            problems.append(StringsDictProblem(line: key.line, kind: .incomplete(key: key.text)))
            return nil
        }
        return StringsDictEntry(key: key.text, format: format, variables: variables, line: key.line, comment: key.comment)
    }
}
