/// Turns what a person types after `--due` into a calendar date.
public enum DateInput {
    /// Parses, in this order: `YYYY-MM-DD`; `today`, `tomorrow`, `+Nd`,
    /// `+Nw` (case-insensitive); the locale's short numeric date; a date in
    /// the form pm shows it; then the reader's words from the tables. Built-in
    /// forms come first, so a table can add words but never change what a
    /// built-in form means.
    /// - Parameters:
    ///   - today: the viewer's date, in their time zone.
    ///   - words: localized words mapped to a day offset from today.
    ///   - localFormat: the locale's date formats.
    /// - Throws: ``PMError/invalidDate(_:)``, or ``PMError/dateOutOfRange(_:)``
    ///   for a day outside the years a board can hold.
    public static func parse(
        _ text: String, today: CivilDate, words: [String: Int] = [:], localFormat: LocalDateFormat? = nil
    ) throws -> CivilDate {
        let trimmed = text.trimmingASCIIWhitespace()
        let lowered = trimmed.lowercased()
        if let date = CivilDate(iso: trimmed) { return date }
        if let offset = builtInOffset(lowered) {
            guard let date = today.adding(days: offset) else { throw PMError.dateOutOfRange(text) }
            return date
        }
        if let localFormat {
            if let date = localFormat.parse(trimmed, today: today) ?? localFormat.parseShown(trimmed) { return date }
        }
        if let offset = words[lowered] ?? words[lowered.replacingOccurrences(of: "\u{2019}", with: "'")] {
            guard let date = today.adding(days: offset) else { throw PMError.dateOutOfRange(text) }
            return date
        }
        throw PMError.invalidDate(text)
    }

    /// The day offset of `today`, `tomorrow`, `+Nd` and `+Nw`; nil for anything else.
    static func builtInOffset(_ lowered: String) -> Int? {
        switch lowered {
        case "today": return 0
        case "tomorrow": return 1
        default: break
        }
        let digits = lowered.dropFirst().dropLast()
        guard lowered.hasPrefix("+"), (1...7).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let unit = lowered.last, let count = Int(digits)
        else { return nil }
        switch unit {
        case "d": return count
        case "w": return count * 7
        default: return nil
        }
    }
}
