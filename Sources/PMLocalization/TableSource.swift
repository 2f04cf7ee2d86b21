import Foundation

/// Where translation tables come from: the ones built into the binary, and a
/// translator's folder (`PM_LOCALIZATION_DIR`) read before them.
public struct TableSource: Sendable {
    /// A translator's folder of `<lang>.lproj/Localizable.strings`, or nil.
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

    /// Tables for `language`, most specific first: the translator's, then the built-in one.
    func tables(for language: String) -> [[String: String]] {
        var result: [[String: String]] = []
        if let overrideDirectory,
            let data = FileManager.default.contents(atPath: "\(overrideDirectory)/\(language).lproj/Localizable.strings")
        {
            result.append(StringsTableParser.parse(bytes: [UInt8](data)).values)
        }
        if let bytes = Self.shippedBytes(for: language) {
            result.append(StringsTableParser.parse(bytes: bytes).values)
        }
        return result
    }

    static func decodeHex(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.utf8.count / 2)
        var high: UInt8?
        for c in hex.utf8 {
            let nibble: UInt8 = c >= 0x61 ? c - 0x61 + 10 : c - 0x30
            if let h = high {
                bytes.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes
    }
}
