/// Turns what a person types after `--due` into a calendar date.
public enum DateInput {
    /// Parses `YYYY-MM-DD`, `today`, `tomorrow`, `+Nd` (case-insensitive),
    /// and any extra words given (the translated "today"/"tomorrow", with
    /// their day offset).
    /// - Parameters:
    ///   - today: the viewer's date, in their time zone.
    ///   - words: localized words mapped to a day offset from today.
    /// - Throws: ``PMError/invalidDate(_:)``.
    ///   - localFormat: the locale's short numeric date, tried last.
    public static func parse(
        _ text: String, today: CivilDate, words: [String: Int] = [:], localFormat: LocalDateFormat? = nil
    ) throws -> CivilDate {
        let trimmed = text.trimmingASCIIWhitespace()
        let lowered = trimmed.lowercased()
        if let date = CivilDate(iso: trimmed) { return date }
        switch lowered {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        default: break
        }
        if let offset = words[lowered] ?? words[lowered.replacingOccurrences(of: "\u{2019}", with: "'")] {
            return today.adding(days: offset)
        }
        if lowered.hasPrefix("+"), lowered.hasSuffix("d"), lowered.count >= 3, lowered.count <= 7,
            let days = Int(lowered.dropFirst().dropLast()), days >= 0
        {
            let date = today.adding(days: days)
            if date.year <= 9999 { return date }
        }
        if let date = localFormat?.parse(trimmed) { return date }
        throw PMError.invalidDate(text)
    }
}
