import FoundationEssentials
import Glibc

/// Where translation tables come from: the ones built into the binary, and a
/// translator's folder (`PM_LOCALIZATION_DIR`) read before them.
public struct TableSource: Sendable {
    /// A translator's folder of `<lang>.lproj/Localizable.strings` (and
    /// `Localizable.stringsdict`), or nil.
    public var overrideDirectory: String?

    /// The built-in tables plus, when given, a translator's folder.
    public init(overrideDirectory: String? = nil) {
        self.overrideDirectory = overrideDirectory
    }

    /// The languages built into the binary (`en`, `fr`, `ko`).
    public static var shippedLanguages: [String] {
        EmbeddedTables.hex.keys.sorted()
    }

    /// The raw bytes of the built-in table for `language`, if it ships.
    public static func shippedBytes(for language: String) -> [UInt8]? {
        guard let hex = EmbeddedTables.hex[language] else { return nil }
        return decodeHex(hex)
    }

    /// The raw bytes of the built-in `.stringsdict` (plurals) for `language`, if it has one.
    public static func shippedPluralBytes(for language: String) -> [UInt8]? {
        guard let hex = EmbeddedTables.pluralHex[language] else { return nil }
        return decodeHex(hex)
    }

    /// Tables for `language`, most specific first: the translator's, then the
    /// built-in one (parsed when pm was built: nothing to parse here).
    func tables(for language: String) -> [TableValues] {
        var result: [TableValues] = []
        if let overrideDirectory {
            let folder = "\(overrideDirectory)/\(language).lproj/"
            var values: [String: String] = [:]
            if let data = FileManager.default.contents(atPath: folder + "Localizable.strings") {
                values = StringsTableParser.parse(bytes: [UInt8](data)).values
            }
            // Plurals as translation platforms keep them (Apple's plist):
            // each category becomes the key pm looks up (`key.one`).
            // Only plural messages, and a table of a size a language needs
            // (pm's whole English table is under 200 KB): a larger one is left out.
            let plurals = folder + "Localizable.stringsdict"
            var info = stat()
            if stat(plurals, &info) == 0, info.st_size <= Self.pluralTableLimit,
                let data = FileManager.default.contents(atPath: plurals),
                data.count <= Self.pluralTableLimit
            {
                for entry in StringsDictParser.parse(bytes: [UInt8](data)).entries
                where L10nPluralKey(rawValue: entry.key) != nil {
                    for (key, value) in entry.suffixedForms { values[key] = value }
                }
            }
            if !values.isEmpty { result.append(TableValues(values)) }
        }
        if let entries = EmbeddedTables.entries[language] {
            result.append(TableValues(sorted: entries))
        }
        return result
    }

    /// The largest `.stringsdict` read, in bytes.
    static let pluralTableLimit = 4 << 20

    static func decodeHex(_ hex: String) -> [UInt8] {
        let digits = hex.utf8
        let count = digits.count / 2
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var index = digits.startIndex
            for position in 0..<count {
                let high = digits[index]
                digits.formIndex(after: &index)
                let low = digits[index]
                digits.formIndex(after: &index)
                let value = { (c: UInt8) -> UInt8 in c >= 0x61 ? c &- 0x61 &+ 10 : c &- 0x30 }
                buffer[position] = value(high) << 4 | value(low)
            }
            initialized = count
        }
    }
}

/// One table's values by key: a translator's, parsed at run time, or a
/// built-in one, parsed at build time and searched where it lies.
struct TableValues: Sendable {
    private let parsed: [String: String]?
    /// key, value, key, value, …, sorted by key.
    private let sorted: [String]

    init(_ values: [String: String]) {
        parsed = values
        sorted = []
    }

    init(sorted: [String]) {
        parsed = nil
        self.sorted = sorted
    }

    subscript(key: String) -> String? {
        if let parsed { return parsed[key] }
        var low = 0
        var high = sorted.count / 2
        while low < high {
            let middle = (low + high) / 2
            let candidate = sorted[2 * middle]
            if candidate == key { return sorted[2 * middle + 1] }
            if candidate < key { low = middle + 1 } else { high = middle }
        }
        return nil
    }
}
