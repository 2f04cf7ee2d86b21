/// The words of a time of day in the reader's language (from the tables),
/// folded as typed text is: `pm`, `오후` (a half of the day, before or after
/// the hour), `h`, `시` (after the hour), `분` (after the minutes), `반`
/// (thirty minutes), `midi` (12:00), `at`, `à` (before the time, meaning
/// nothing), `까지` (ending a deadline, meaning nothing more), and the
/// hours that without a half of the day mean the afternoon (Korean 3시).
public struct TimeWords: Sendable {
    public var morning: Set<String>
    public var afternoon: Set<String>
    public var hourMarks: Set<String>
    public var minuteMarks: Set<String>
    public var before: Set<String>
    public var half: Set<String> = []
    public var noon: Set<String> = []
    public var afternoonHours: Set<Int> = []
    public var untilSuffixes: [String] = []
    public var fold: @Sendable (String) -> String
    /// Every word of a deadline (these and the date's), folded: how a text
    /// typed without spaces (`明日15時`) is cut into words. Made only for such a text.
    public var vocabulary: @Sendable () -> Set<String> = { [] }

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
    /// end (after an optional zone), then at the start, in up to three
    /// words (`오후 3시 30분`); a text that has none is all day.
    /// - Throws: ``PMError/badTime(_:part:)`` for a time that cannot be
    ///   (25:00, 13pm), ``PMError/unknownZone(_:)`` for a zone this system
    ///   does not know, ``PMError/invalidDate(_:)`` for a zone without a time.
    public static func split(_ whole: String, words: TimeWords) throws -> Parts {
        var text = whole.trimmingASCIIWhitespace()
        for suffix in words.untilSuffixes where !suffix.isEmpty && text.hasSuffix(suffix) && text.count > suffix.count {
            text = String(text.dropLast(suffix.count)).trimmingASCIIWhitespace()
            break
        }
        // A text typed without spaces (`明日15時`) cut into its words; the
        // day is said back as it was typed.
        var typed = WordSegmenter.words(text, vocabulary: words.vocabulary, fold: words.fold)
        var tokens = typed.map(\.word)
        if let iso = isoDateTime(tokens.count == 1 ? tokens[0] : "") { return iso }
        let zone = try zoneName(tokens.last)
        if zone != nil {
            tokens.removeLast()
            typed.removeLast()
        }
        // Up to three words as typed (`오후 3시 30분`), however many pieces they were cut into.
        // (Three words are never more than a few dozen pieces: a long text costs no more.)
        for count in stride(from: min(tokens.count, 24), through: 1, by: -1) {
            let candidates = [(typed.suffix(count), true), (typed.prefix(count), false)]
            for (candidate, atEnd) in candidates where atEnd || count < tokens.count {
                guard candidate.dropFirst().filter({ !$0.glued }).count < 3 else { continue }
                let time: (Int, Int)?
                do {
                    time = try Self.time(candidate.map(\.word), words: words)
                } catch {
                    // The time is there and cannot be: a shorter reading (`13시` of `오후 13시`) is not it.
                    var said = Array(candidate)
                    said[0].glued = false
                    throw PMError.badTime(whole, part: WordSegmenter.typed(said))
                }
                guard let (hour, minute) = time else { continue }
                var rest = atEnd ? Array(typed.dropLast(count)) : Array(typed.dropFirst(count))
                if atEnd, let word = rest.last, words.before.contains(words.fold(word.word)) { rest.removeLast() }
                if let first = rest.first, first.glued { rest[0].glued = false }
                return Parts(day: WordSegmenter.typed(rest), hour: hour, minute: minute, zone: zone)
            }
        }
        guard zone == nil else { throw PMError.invalidDate(whole) }
        return Parts(day: text, hour: nil, minute: 0, zone: nil)
    }

    /// The zone the last word names, if it names one: `UTC`, `±HH:MM`, a
    /// name of the zone database (`Europe/Paris`, `Japan`). A word with a
    /// `/` that starts with a letter names a zone or is refused (`12/1` is a date).
    private static func zoneName(_ word: String?) throws -> String? {
        guard let word else { return nil }
        if word.lowercased() == "utc" || word.lowercased() == "gmt" || word == "Z" { return "UTC" }
        if DueTime.fixedOffset(word) != nil { return word }
        let lettered = word.unicodeScalars.first.map { $0.properties.isAlphabetic && $0.isASCII } == true
        guard lettered else { return nil }
        // A word without `/` (`Japan`) must be a zone file: asking ICU of
        // every last word (`tomorrow`) would load it for every `pm add`.
        guard word.contains("/") else { return DueTime.isZoneName(word) && Zone.hasZoneFile(word) ? word : nil }
        guard DueTime.isZoneName(word), Zone(identifier: word) != nil else { throw PMError.unknownZone(word) }
        return word
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
    static func time(_ tokens: [String], words: TimeWords) throws -> (Int, Int)? {
        // A dash is no part of a time (`-1:00`, `1-2pm`), and two numbers
        // side by side are a day and a time (`Dec 1 3pm`), never one time.
        let joined = tokens.joined()
        if joined.unicodeScalars.contains(where: { $0.properties.generalCategory == .dashPunctuation || $0 == "-" }) {
            return nil
        }
        for (word, next) in zip(tokens, tokens.dropFirst())
        where word.allSatisfy({ $0.isASCII && $0.isNumber }) && next.first?.isNumber == true {
            return nil
        }
        var text = words.fold(joined)
        let half = halfOfDay(&text, words: words)
        if half == nil, words.noon.contains(text) { return (12, 0) }
        let hourDigits = text.prefix { $0.isASCII && $0.isNumber }
        guard (1...2).contains(hourDigits.count), var hour = Int(hourDigits) else { return nil }
        var rest = text.dropFirst(hourDigits.count)
        var marked = half != nil
        var minute = 0
        if rest.hasPrefix(":") {
            let digits = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
            guard digits.count == 2, let value = Int(digits) else { return nil }
            minute = value
            rest = rest.dropFirst(3)
            marked = true
            // `15:30 Uhr`, `15:30時`: the hour's word may follow the clock.
            if let mark = words.hourMarks.sorted(by: { $0.count > $1.count }).first(where: { rest == $0 }) {
                rest = rest.dropFirst(mark.count)
            }
        } else if let mark = words.hourMarks.sorted(by: { $0.count > $1.count }).first(where: { rest.hasPrefix($0) }) {
            rest = rest.dropFirst(mark.count)
            marked = true
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty {
                guard digits.count == 2, let value = Int(digits) else { return nil }
                minute = value
                rest = rest.dropFirst(2)
                if let mark = words.minuteMarks.first(where: { rest.hasPrefix($0) }) { rest = rest.dropFirst(mark.count) }
            } else if let word = words.half.first(where: { !$0.isEmpty && rest == $0 }) {
                minute = 30
                rest = rest.dropFirst(word.count)
            }
            // 3시 said alone is the afternoon's where the language says so.
            if half == nil, words.afternoonHours.contains(hour) { hour += 12 }
        }
        guard marked, rest.isEmpty else { return nil }
        struct Impossible: Error {}
        guard minute < 60 else { throw Impossible() }
        guard let half else {
            guard hour < 24 else { throw Impossible() }
            return (hour, minute)
        }
        guard (1...12).contains(hour) else { throw Impossible() }
        return ((hour % 12) + (half ? 12 : 0), minute)
    }

    /// The half of the day a word before or after the hour names (`오후`,
    /// `pm`), taken off `text`: true for the afternoon; nil for none.
    private static func halfOfDay(_ text: inout String, words: TimeWords) -> Bool? {
        for (set, afternoon) in [(words.morning, false), (words.afternoon, true)] {
            for word in set.sorted(by: { $0.count > $1.count }) where !word.isEmpty {
                if text.hasPrefix(word) {
                    text.removeFirst(word.count)
                    return afternoon
                }
                if text.hasSuffix(word) {
                    text.removeLast(word.count)
                    return afternoon
                }
            }
        }
        return nil
    }
}
