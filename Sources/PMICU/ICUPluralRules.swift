internal import CICU

/// A language's plural rules (`one`, `few`, `other`, …), through ICU.
///
/// Sendable: once opened, the rules are only read (`uplrules_select` is
/// const in ICU, safe from several threads) until they are closed in deinit.
public final class ICUPluralRules: @unchecked Sendable {
    private let rules: OpaquePointer

    /// Opens the rules of `locale` (`fr`, `ko_KR`); nil if ICU refuses.
    public init?(locale: String) {
        var status = U_ZERO_ERROR
        guard let opened = pm_uplrules_open(locale, &status), pm_u_success(status) == 1 else { return nil }
        rules = opened
    }

    deinit { pm_uplrules_close(rules) }

    /// The CLDR plural category of `count`: `zero`, `one`, `two`, `few`, `many` or `other`.
    public func category(for count: Int) -> String {
        var status = U_ZERO_ERROR
        var buffer = [UInt16](repeating: 0, count: 16)
        let length = pm_uplrules_select(rules, Double(count), &buffer, 16, &status)
        guard pm_u_success(status) == 1, length > 0, length <= 16 else { return "other" }
        return String(decoding: buffer[0..<Int(length)], as: UTF16.self)
    }
}

/// A locale's collation order, through ICU.
public final class ICUCollator {
    private let collator: OpaquePointer

    /// Opens the collator of `locale`; nil if ICU refuses.
    public init?(locale: String) {
        var status = U_ZERO_ERROR
        guard let opened = pm_ucol_open(locale, &status), pm_u_success(status) == 1 else { return nil }
        collator = opened
    }

    deinit { pm_ucol_close(collator) }

    /// A collator of `locale` that ignores case and accents (`pm list --grep`).
    public static func ignoringCaseAndAccents(locale: String) -> ICUCollator? {
        guard let collator = ICUCollator(locale: locale) else { return nil }
        var status = U_ZERO_ERROR
        pm_ucol_set_primary(collator.collator, &status)
        return pm_u_success(status) == 1 ? collator : nil
    }

    /// Whether `pattern` occurs in `text` by this collator (an empty pattern always does).
    public func contains(_ pattern: String, in text: String) -> Bool {
        let needle = Array(pattern.utf16)
        let haystack = Array(text.utf16)
        guard !needle.isEmpty else { return true }
        guard !haystack.isEmpty else { return false }
        let found = needle.withUnsafeBufferPointer { p in
            haystack.withUnsafeBufferPointer { t in
                pm_usearch_contains(p.baseAddress, Int32(p.count), t.baseAddress, Int32(t.count), collator)
            }
        }
        return found == 1
    }

    /// Compares two strings: negative, zero or positive.
    public func compare(_ lhs: String, _ rhs: String) -> Int {
        var a = lhs
        var b = rhs
        return a.withUTF8 { ab in
            b.withUTF8 { bb in
                var status = U_ZERO_ERROR
                let result = ab.withMemoryRebound(to: CChar.self) { ac in
                    bb.withMemoryRebound(to: CChar.self) { bc in
                        pm_ucol_strcoll_utf8(collator, ac.baseAddress, Int32(ac.count), bc.baseAddress, Int32(bc.count), &status)
                    }
                }
                return Int(result)
            }
        }
    }
}
