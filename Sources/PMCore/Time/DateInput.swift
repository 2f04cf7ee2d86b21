import FoundationEssentials

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
        _ text: String, today: CivilDate, words: [String: Int] = [:], localFormat: @autoclosure () -> LocalDateFormat? = nil
    ) throws -> CivilDate {
        try parse(text, today: today, words: DateWords(offsets: words), localFormat: localFormat())
    }

    /// Parses as above, with the reader's words: day offsets (`demain`,
    /// `모레`), weekday names (`vendredi`, `금요일`: the next such day after
    /// today) and extra units for `+N` (`+3j`, `+2s`, `+3일`, `+1주`).
    /// `localFormat` is made only when the text is none of the built-in
    /// forms (an ISO date needs no ICU formatter).
    /// `words` too is made only then: the tables' date words cost more than
    /// the rest of an add.
    public static func parse(
        _ text: String, today: CivilDate, words readerWords: @autoclosure () -> DateWords,
        localFormat: @autoclosure () -> LocalDateFormat? = nil
    ) throws -> CivilDate {
        let trimmed = text.trimmingASCIIWhitespace()
        let lowered = trimmed.lowercased()
        if let date = CivilDate(iso: trimmed) { return date }
        if let offset = builtInOffset(lowered) {
            guard let date = today.adding(days: offset) else { throw PMError.dateOutOfRange(text) }
            return date
        }
        let words = readerWords()
        if let offset = words.unitOffset(trimmed) {
            guard let date = today.adding(days: offset) else { throw PMError.dateOutOfRange(text) }
            return date
        }
        if let localFormat = localFormat() {
            if let date = localFormat.parse(trimmed, today: today) ?? localFormat.parseShown(trimmed, today: today) {
                return date
            }
        }
        let folded = words.fold(trimmed)
        if let offset = words.offsets[folded] {
            guard let date = today.adding(days: offset) else { throw PMError.dateOutOfRange(text) }
            return date
        }
        if let weekday = words.weekdays[folded] {
            // The next such day: 1 to 7 days ahead ("vendredi" said on a Friday is next week's).
            let ahead = (weekday - today.isoWeekday + 7) % 7
            guard let date = today.adding(days: ahead == 0 ? 7 : ahead) else { throw PMError.dateOutOfRange(text) }
            return date
        }
        if let written = WrittenDate.parse(trimmed, today: today, words: words) {
            // Recognised as a date, but one that does not exist (30 February).
            guard let date = written else { throw PMError.noSuchDate(text) }
            return date
        }
        throw PMError.invalidDate(text)
    }

    /// Whether `text` names its day one way only: an ISO date, a day offset
    /// (`tomorrow`, `+3d`, `demain`), `in 3 days`. A weekday (`vendredi
    /// prochain`: this week's or the next?), a date without its year or in
    /// the locale's numbers (`1/3`) is read one of two ways, and the reader
    /// is told which day pm chose.
    public static func readsOneWay(_ text: String, words readerWords: @autoclosure () -> DateWords) -> Bool {
        let trimmed = text.trimmingASCIIWhitespace()
        if CivilDate(iso: trimmed) != nil || builtInOffset(trimmed.lowercased()) != nil { return true }
        let words = readerWords()
        if words.unitOffset(trimmed) != nil { return true }
        if words.offsets[words.fold(trimmed)] != nil { return true }
        let tokens = WrittenDate.tokenize(trimmed, words: words)
        if tokens.count == 1, words.offsets[tokens[0]] != nil { return true }
        return WrittenDate.isRelative(trimmed, words: words)
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

/// The words a language adds to the built-in date forms (from its table).
public struct DateWords: Sendable {
    /// Folded word → days from today (`demain` → 1, `모레` → 2).
    public var offsets: [String: Int]
    /// Folded word → ISO weekday, 1 = Monday … 7 = Sunday.
    public var weekdays: [String: Int]
    /// Extra unit suffixes for `+N`: days (`j`, `일`) and weeks (`s`, `주`).
    public var dayUnits: [String]
    public var weekUnits: [String]
    /// Folded month names and abbreviations (from ICU) → 1…12.
    public var months: [String: Int] = [:]
    /// Where more month names come from, asked only when a written date is
    /// read (ICU's pattern generator costs more than the rest of an add).
    public var moreMonths: (@Sendable () -> [String: Int])?
    /// Words after a number that make it a month, a year, or a day (`월`, `년`; `st`, `er`, `일`).
    public var monthMarks: Set<String> = []
    public var yearMarks: Set<String> = []
    public var daySuffixes: Set<String> = ["st", "nd", "rd", "th"]
    /// `next` (`next friday`), and the phrases for next week and this
    /// week, folded without spaces (`nextweek`, `다음주`, `이번주`).
    public var next: Set<String> = []
    public var nextWeek: Set<String> = []
    public var thisWeek: Set<String> = []
    /// Counts written as words (`a week`, `deux jours`, `두 주`), folded → 1…10.
    public var numbers: [String: Int] = [:]
    /// The words of `in 3 days`: before the count (`in`, `dans`) or after the unit (`후`).
    public var inBefore: Set<String> = []
    public var inAfter: Set<String> = []
    /// Words that may stand in a written date and mean nothing (`the`, `on`, `le`).
    public var fillers: Set<String> = []
    /// How typed text is compared with the words (case, accents, spaces).
    public var fold: @Sendable (String) -> String

    public init(
        offsets: [String: Int] = [:], weekdays: [String: Int] = [:], dayUnits: [String] = [], weekUnits: [String] = [],
        fold: @escaping @Sendable (String) -> String = { $0.lowercased().replacing("\u{2019}", with: "'") }
    ) {
        self.offsets = offsets
        self.weekdays = weekdays
        self.dayUnits = dayUnits
        self.weekUnits = weekUnits
        self.fold = fold
    }

    /// `+3j`, `+3 일`, `+2주`: the day offset with a unit of the language.
    /// The built-in `d` and `w` are tried first and cannot be redefined.
    func unitOffset(_ text: String) -> Int? {
        guard text.hasPrefix("+") else { return nil }
        let rest = text.dropFirst()
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard (1...7).contains(digits.count), let count = Int(digits) else { return nil }
        let unit = fold(String(rest.dropFirst(digits.count)).trimmingASCIIWhitespace())
        if dayUnits.contains(where: { fold($0) == unit }) { return count }
        if weekUnits.contains(where: { fold($0) == unit }) { return count * 7 }
        return nil
    }

    /// Every word of a written date, folded: how a text typed without
    /// spaces (`3日後`, `来週の金曜日`) is cut into words.
    public var vocabulary: Set<String> {
        var words = Set(offsets.keys).union(weekdays.keys).union(months.keys).union(numbers.keys)
        words.formUnion((dayUnits + weekUnits).map(fold))
        for set in [monthMarks, yearMarks, daySuffixes, next, nextWeek, thisWeek, inBefore, inAfter, fillers] {
            words.formUnion(set)
        }
        return words.filter { !$0.isEmpty }
    }
}
