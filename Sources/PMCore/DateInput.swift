/// Turns what a person types after `--due` into a calendar date.
public enum DateInput {
    /// Parses `YYYY-MM-DD`, `today`, `tomorrow`, `+Nd` (case-insensitive),
    /// and any extra words given (the translated "today"/"tomorrow", with
    /// their day offset).
    /// - Parameters:
    ///   - today: the viewer's date, in their time zone.
    ///   - words: localized words mapped to a day offset from today.
    /// - Throws: ``PMError/invalidDate(_:)``.
    public static func parse(_ text: String, today: CivilDate, words: [String: Int] = [:]) throws -> CivilDate {
        let trimmed = text.trimmingASCIIWhitespace()
        let lowered = trimmed.lowercased()
        if let date = CivilDate(iso: trimmed) { return date }
        switch lowered {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        default: break
        }
        if let offset = words[lowered] { return today.adding(days: offset) }
        if lowered.hasPrefix("+"), lowered.hasSuffix("d"), lowered.count >= 3, lowered.count <= 7,
            let days = Int(lowered.dropFirst().dropLast()), days >= 0
        {
            let date = today.adding(days: days)
            if date.year <= 9999 { return date }
        }
        throw PMError.invalidDate(text)
    }
}
