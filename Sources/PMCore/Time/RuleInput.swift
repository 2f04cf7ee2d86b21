/// Turns what a person types after `--every` into a ``Recurrence``: an
/// RRULE value as ``Recurrence/rrule`` writes it (in any language), or the
/// reader's words (``RuleWords``): `week`, `2 weeks`, `monday and
/// thursday`, `weekday`, `month on day 1`, `last friday of the month`,
/// `year`; `chaque lundi`, `tous les 15 du mois`; `매주 월요일`, `매월 1일`.
///
/// The words are read by what they are, not by where they stand, so that
/// each language's order works: a unit (day, week, month, year) with the
/// count just before it is the interval; weekday names are the days of a
/// weekly rule; an ordinal before a weekday (or a number with a day suffix)
/// is the nth weekday of a month; a number with a day suffix, after the
/// word for day, or alone beside a month is the day of the month; `last`
/// before the word for day is the month's last day. Anything else is
/// refused, naming the part pm could not read.
public enum RuleInput {
    /// - Throws: ``PMError/badRule(_:part:)``.
    public static func parse(_ text: String, words: RuleWords) throws -> Recurrence {
        let trimmed = text.trimmingASCIIWhitespace()
        if let rule = Recurrence(rrule: trimmed.uppercased()) { return rule }
        var reading = Reading(text: text, pieces: try pieces(of: trimmed, words: words))
        return try reading.rule()
    }

    /// A rule and the last day it may fall on: an RRULE with its UNTIL
    /// (``Series/rule(fromRRULE:)``), else the reader's words (no end).
    /// - Throws: ``PMError/badRule(_:part:)``.
    public static func parseWithEnd(_ text: String, words: RuleWords) throws -> (rule: Recurrence, until: CivilDate?) {
        if let (rule, until) = Series.rule(fromRRULE: text.trimmingASCIIWhitespace()) { return (rule, until) }
        return (try parse(text, words: words), nil)
    }

    /// One word or number of the text, with what it may mean.
    struct Piece {
        var typed: String
        var number: Int?
        var meaning: RuleWords.Meaning?
    }

    /// The text cut into numbers and words (longest phrases of the tables
    /// first), each word's meaning looked up.
    static func pieces(of text: String, words: RuleWords) throws -> [Piece] {
        var chunks: [String] = []
        // A rule typed without spaces (`毎週月曜日`) cut into the table's words first.
        let spaced = WordSegmenter.spaced(text, vocabulary: { Set(words.words.keys) }, fold: words.fold)
        for part in spaced.split(whereSeparator: { $0.isWhitespace || $0 == "," || $0 == "，" || $0 == "、" }) {
            // Digits apart from letters: `15th`, `2주마다`, `1er`.
            var current = ""
            var digits = false
            for character in part {
                let isDigit = character.isASCII && character.isNumber
                if !current.isEmpty, isDigit != digits {
                    chunks.append(current)
                    current = ""
                }
                current.append(character)
                digits = isDigit
            }
            if !current.isEmpty { chunks.append(current) }
        }
        var pieces: [Piece] = []
        var index = 0
        while index < chunks.count {
            let chunk = chunks[index]
            if chunk.first?.isASCII == true, chunk.first?.isNumber == true {
                guard chunk.count <= 4, let number = Int(chunk) else { throw PMError.badRule(text, part: chunk) }
                pieces.append(Piece(typed: chunk, number: number))
                index += 1
                continue
            }
            var matched = false
            for end in stride(from: min(index + 3, chunks.count), to: index, by: -1) {
                let typed = chunks[index..<end].joined(separator: " ")
                if let meaning = words.meaning(of: typed) {
                    pieces.append(Piece(typed: typed, number: meaning.number, meaning: meaning))
                    index = end
                    matched = true
                    break
                }
            }
            guard matched else { throw PMError.badRule(text, part: chunk) }
        }
        return pieces
    }

    /// What the pieces say, gathered and then checked to make one rule.
    private struct Reading {
        let text: String
        var pieces: [Piece]
        var frequency: (Recurrence.Frequency, Piece)?
        var interval: (Int, Piece)?
        var weekdays: [Int] = []
        var workdays = false
        var nth: Recurrence.NthWeekday?
        var monthDay: (Int, Piece)?
        /// Numbers beside no unit: a day of the month when a month is named.
        var loose: [Piece] = []
        var used = Set<Int>()

        /// Fillers (`the`, `du`) stay among the pieces: `15 du mois` is a
        /// day of the month where `15 mois` is a count of months.
        init(text: String, pieces: [Piece]) {
            self.text = text
            self.pieces = pieces
        }

        func refuse(_ piece: Piece) -> PMError { .badRule(text, part: piece.typed) }

        mutating func rule() throws -> Recurrence {
            let monthNamed = pieces.contains { $0.meaning?.unit == .monthly }
            for index in pieces.indices where !used.contains(index) { try read(index, monthNamed: monthNamed) }
            if let (_, piece) = monthDay, nth != nil || !weekdays.isEmpty || workdays { throw refuse(piece) }
            for piece in loose {
                guard monthNamed, monthDay == nil, nth == nil else { throw refuse(piece) }
                monthDay = (piece.number ?? 0, piece)
            }
            return try made()
        }

        /// Reads the piece at `index` and what it takes after it.
        mutating func read(_ index: Int, monthNamed: Bool) throws {
            let piece = pieces[index]
            let next = index + 1 < pieces.count ? pieces[index + 1] : nil
            used.insert(index)
            let meaning = piece.meaning
            if meaning?.filler == true { return }
            if let number = piece.number, try readNumber(number, at: index) { return }
            if let ordinal = meaning?.ordinal {
                if let weekday = next?.meaning?.weekday {
                    used.insert(index + 1)
                    return try setNth(ordinal, weekday, piece)
                }
                if ordinal == -1, let next, next.meaning?.unit == .daily {
                    used.insert(index + 1)
                    return try setMonthDay(-1, piece)
                }
                throw refuse(piece)
            }
            if meaning?.other == true, let next, let unit = next.meaning?.unit {
                used.insert(index + 1)
                try setInterval(2, piece)
                return try setFrequency(unit, next)
            }
            // A word that says both (Korean 격주: every other week).
            if meaning?.other == true, let unit = meaning?.unit {
                try setInterval(2, piece)
                return try setFrequency(unit, piece)
            }
            if let unit = meaning?.unit {
                // `day 15`: the day of the month.
                if unit == .daily, let next, let number = next.number, next.meaning == nil, monthNamed {
                    used.insert(index + 1)
                    return try setMonthDay(number, next)
                }
                return try setFrequency(unit, piece)
            }
            if let weekday = meaning?.weekday {
                if !weekdays.contains(weekday) { weekdays.append(weekday) }
                return
            }
            if meaning?.workdays == true {
                workdays = true
                return
            }
            throw refuse(piece)
        }

        /// Reads a number and what it takes after it; false for an ordinal
        /// word, which is read as one.
        mutating func readNumber(_ number: Int, at index: Int) throws -> Bool {
            let piece = pieces[index]
            let next = index + 1 < pieces.count ? pieces[index + 1] : nil
            let monthNamed = pieces.contains { $0.meaning?.unit == .monthly }
            // A number with a day suffix: the nth weekday before a weekday, else a day of the month.
            if let next, next.meaning?.daySuffix == true, next.meaning?.unit == nil || monthNamed {
                used.insert(index + 1)
                if index + 2 < pieces.count, let weekday = pieces[index + 2].meaning?.weekday {
                    used.insert(index + 2)
                    try setNth(number, weekday, piece)
                } else {
                    try setMonthDay(number, piece)
                }
                return true
            }
            if let next, let unit = next.meaning?.unit {
                used.insert(index + 1)
                try setInterval(number, piece)
                try setFrequency(unit, next)
                return true
            }
            // An ordinal word used as a count of days, weeks: read as an ordinal only.
            guard piece.meaning?.ordinal == nil else { return false }
            loose.append(piece)
            return true
        }

        mutating func setFrequency(_ unit: Recurrence.Frequency, _ piece: Piece) throws {
            if let (known, _) = frequency, known != unit { throw refuse(piece) }
            frequency = (unit, piece)
        }

        mutating func setInterval(_ count: Int, _ piece: Piece) throws {
            guard interval == nil, (1...Recurrence.intervalLimit).contains(count) else { throw refuse(piece) }
            interval = (count, piece)
        }

        mutating func setMonthDay(_ day: Int, _ piece: Piece) throws {
            guard monthDay == nil, (1...31).contains(day) || day == -1 else { throw refuse(piece) }
            monthDay = (day, piece)
        }

        mutating func setNth(_ ordinal: Int, _ weekday: Int, _ piece: Piece) throws {
            guard nth == nil, (1...5).contains(abs(ordinal)) else { throw refuse(piece) }
            nth = Recurrence.NthWeekday(ordinal: ordinal, weekday: weekday)
        }

        /// The rule the pieces make; a part that does not fit it is named.
        func made() throws -> Recurrence {
            let count = interval?.0 ?? 1
            let named = frequency?.0
            let rule: Recurrence?
            if workdays || !weekdays.isEmpty {
                if let named, named != .weekly, let (_, piece) = frequency { throw refuse(piece) }
                rule = Recurrence(.weekly, interval: count, weekdays: workdays ? Array(1...5) + weekdays : weekdays)
            } else if nth != nil || monthDay != nil {
                if let named, named != .monthly, let (_, piece) = frequency { throw refuse(piece) }
                rule = Recurrence(.monthly, interval: count, monthDay: monthDay?.0, nthWeekday: nth)
            } else if let named {
                rule = Recurrence(named, interval: count)
            } else {
                throw PMError.badRule(text, part: text)
            }
            guard let rule else { throw PMError.badRule(text, part: interval?.1.typed ?? text) }
            return rule
        }
    }
}

/// The words a language reads in a rule (from its table), folded.
public struct RuleWords: Sendable {
    /// What a word may mean; a word of two meanings (Korean 일: a day, and
    /// the day suffix of `1일`) has both.
    public struct Meaning: Sendable, Equatable {
        public var unit: Recurrence.Frequency?
        public var weekday: Int?
        public var workdays = false
        public var ordinal: Int?
        public var number: Int?
        public var other = false
        public var filler = false
        public var daySuffix = false

        public init() {}
    }

    /// Folded word → what it means.
    public var words: [String: Meaning] = [:]
    /// Endings a word may carry that change nothing (`s` of `mondays`, `마다`, `과`), folded.
    public var endings: [String] = []
    public var fold: @Sendable (String) -> String

    public init(fold: @escaping @Sendable (String) -> String = { $0.lowercased() }) {
        self.fold = fold
    }

    /// Adds a meaning to a word (a word keeps every meaning it is given).
    public mutating func add(_ word: String, _ change: (inout Meaning) -> Void) {
        let key = fold(word)
        guard !key.isEmpty else { return }
        var meaning = words[key] ?? Meaning()
        change(&meaning)
        words[key] = meaning
    }

    /// What `typed` means: itself, or with endings that change nothing taken off.
    func meaning(of typed: String) -> Meaning? {
        var key = fold(typed)
        if let meaning = words[key] { return meaning }
        for _ in 0..<2 {
            guard let ending = endings.first(where: { key.hasSuffix($0) && key.count > $0.count }) else { return nil }
            key = String(key.dropLast(ending.count))
            if let meaning = words[key] { return meaning }
        }
        return nil
    }
}
