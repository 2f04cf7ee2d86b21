/// The words of a time of day in the reader's language (from the tables),
/// folded as typed text is: `pm`, `오후` (a half of the day, before or after
/// the hour), `h`, `시` (after the hour), `분` (after the minutes), `at`,
/// `à` (before the time, meaning nothing).
public struct TimeWords: Sendable {
    public var morning: Set<String>
    public var afternoon: Set<String>
    public var hourMarks: Set<String>
    public var minuteMarks: Set<String>
    public var before: Set<String>
    public var fold: @Sendable (String) -> String

    public init(
        morning: Set<String> = ["am", "a.m."], afternoon: Set<String> = ["pm", "p.m."], hourMarks: Set<String> = [],
        minuteMarks: Set<String> = [], before: Set<String> = [],
        fold: @escaping @Sendable (String) -> String = { $0.lowercased() }
    ) {
        (self.morning, self.afternoon, self.hourMarks) = (morning, afternoon, hourMarks)
        (self.minuteMarks, self.before, self.fold) = (minuteMarks, before, fold)
    }
}

/// A deadline as typed after `--due`, with or without a time of day and a
/// zone (issue 48): `2026-12-01 15:00`, `demain 15h`, `내일 오후 3시`,
/// `friday 9am`, `15:00 Europe/Paris`, `2026-12-01T15:00+01:00`.
public enum DueInput {
    /// What was typed, split: the day's words (read by the date reader), the
    /// time, and the zone named (nil: the author's).
    public struct Parts: Equatable, Sendable {
        public var day: String
        public var hour: Int?
        public var minute: Int
        public var zone: String?
    }

    /// Splits `text` into its day and its time. A time is looked for at the
    /// end (after an optional zone), then at the start; a text that has none
    /// is all day. A zone named that this system does not know is refused.
    /// - Throws: ``PMError/invalidDate(_:)`` for a time that cannot be (25:00, 13pm) or an unknown zone.
    public static func split(_ text: String, words: TimeWords) throws -> Parts {
        var tokens = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        var zone: String?
        if let iso = isoDateTime(tokens.count == 1 ? tokens[0] : "") { return iso }
        // A zone: `UTC`, `±HH:MM`, or a name with a `/` that starts with a
        // letter (`12/1`, `1/12/2026` are dates).
        if let last = tokens.last,
            last == "UTC" || DueTime.fixedOffset(last) != nil
                || (last.contains("/") && last.unicodeScalars.first.map { $0.properties.isAlphabetic } == true)
        {
            guard DueTime.isZoneName(last), DueTime.fixedOffset(last) != nil || Zone(identifier: last) != nil else {
                throw PMError.invalidDate(text)
            }
            zone = last
            tokens.removeLast()
        }
        for count in stride(from: min(3, tokens.count), through: 1, by: -1) {
            if let (hour, minute) = try time(tokens.suffix(count).joined(), words: words, whole: text) {
                var rest = Array(tokens.dropLast(count))
                if let word = rest.last, words.before.contains(words.fold(word)) { rest.removeLast() }
                return Parts(day: rest.joined(separator: " "), hour: hour, minute: minute, zone: zone)
            }
            if count < tokens.count, let (hour, minute) = try time(tokens.prefix(count).joined(), words: words, whole: text) {
                return Parts(day: tokens.dropFirst(count).joined(separator: " "), hour: hour, minute: minute, zone: zone)
            }
        }
        guard zone == nil else { throw PMError.invalidDate(text) }
        return Parts(day: text, hour: nil, minute: 0, zone: nil)
    }

    /// `2026-12-01T15:00`, with `Z` or `±HH:MM` after it or nothing.
    private static func isoDateTime(_ text: String) -> Parts? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 16, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
            CivilDate(iso: String(decoding: bytes[0..<10], as: UTF8.self)) != nil,
            let (hour, minute) = DueTime.clock(String(decoding: bytes[11..<16], as: UTF8.self))
        else { return nil }
        let rest = String(decoding: bytes[16...], as: UTF8.self)
        let zone: String?
        switch rest {
        case "": zone = nil
        case "Z", "z": zone = "UTC"
        default:
            guard DueTime.fixedOffset(rest) != nil else { return nil }
            zone = rest == "+00:00" || rest == "-00:00" ? "UTC" : rest
        }
        return Parts(day: String(decoding: bytes[0..<10], as: UTF8.self), hour: hour, minute: minute, zone: zone)
    }

    /// The hour and minute of a time written without spaces: `15:00`,
    /// `3pm`, `3:30pm`, `15h`, `15h30`, `오후3시`, `오후3시30분`; nil for what
    /// is no time (a bare number is a day). Throws for a time that cannot be.
    static func time(_ joined: String, words: TimeWords, whole: String) throws -> (Int, Int)? {
        var text = words.fold(joined)
        var half: Bool?  // false: morning, true: afternoon
        for (set, afternoon) in [(words.morning, false), (words.afternoon, true)] {
            for word in set.sorted(by: { $0.count > $1.count }) where !word.isEmpty {
                if text.hasPrefix(word) {
                    text.removeFirst(word.count)
                    half = afternoon
                } else if text.hasSuffix(word) {
                    text.removeLast(word.count)
                    half = afternoon
                }
                if half != nil { break }
            }
            if half != nil { break }
        }
        let hourDigits = text.prefix { $0.isASCII && $0.isNumber }
        guard (1...2).contains(hourDigits.count), let hour = Int(hourDigits) else { return nil }
        var rest = text.dropFirst(hourDigits.count)
        var marked = half != nil
        var minute = 0
        if rest.hasPrefix(":") {
            let digits = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
            guard digits.count == 2, let value = Int(digits) else { return nil }
            minute = value
            rest = rest.dropFirst(3)
            marked = true
        } else if let mark = words.hourMarks.sorted(by: { $0.count > $1.count }).first(where: { rest.hasPrefix($0) }) {
            rest = rest.dropFirst(mark.count)
            marked = true
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty {
                guard digits.count == 2, let value = Int(digits) else { return nil }
                minute = value
                rest = rest.dropFirst(2)
                if let mark = words.minuteMarks.first(where: { rest.hasPrefix($0) }) { rest = rest.dropFirst(mark.count) }
            }
        }
        guard marked, rest.isEmpty else { return nil }
        guard minute < 60 else { throw PMError.invalidDate(whole) }
        guard let half else {
            guard hour < 24 else { throw PMError.invalidDate(whole) }
            return (hour, minute)
        }
        guard (1...12).contains(hour) else { throw PMError.invalidDate(whole) }
        return ((hour % 12) + (half ? 12 : 0), minute)
    }
}
