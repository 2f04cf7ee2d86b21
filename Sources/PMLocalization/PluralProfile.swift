import PMICU

/// What a language's plural rules (ICU's, from CLDR) make of whole counts:
/// the categories they use, and those that hold a single count (English
/// `one` holds 1 alone; French `one` holds 0 and 1). A form of a category
/// that holds one count may leave the number out ("une seule tâche" would
/// be untrue for 0 in French, "one task" is true in English).
public struct PluralProfile: Sendable, Equatable {
    /// CLDR's categories, in CLDR's order.
    public static let cldrOrder = ["zero", "one", "two", "few", "many", "other"]

    /// The categories the rules give whole counts, in CLDR's order, and
    /// always `other` (CLDR's and Apple's fallback: Russian gives it only to
    /// fractions, yet a table without it is incomplete).
    public let categories: [String]
    /// A category's only count, for a category that holds a single one.
    public let soleCount: [String: Int]

    /// The counts looked at: 0 to 1,000 and larger round numbers, where
    /// some languages change category (French `many` for a million).
    static let samples = Array(0...1000) + [10_000, 100_000, 1_000_000, 2_000_000, 10_000_000]

    /// `language`'s profile, or nil when ICU has no rules for it.
    public init?(language: String) {
        guard let rules = ICUPluralRules(locale: language) else { return nil }
        var counts: [String: [Int]] = [:]
        for count in Self.samples {
            let category = rules.category(for: count)
            if counts[category, default: []].count < 2 { counts[category, default: []].append(count) }
        }
        categories = Self.cldrOrder.filter { counts[$0] != nil || $0 == "other" }
        soleCount = counts.compactMapValues { $0.count == 1 ? $0[0] : nil }
    }
}
