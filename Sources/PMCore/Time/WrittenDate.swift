/// Dates as people write them in a sentence, in the reader's language (issue
/// 21): `Dec 3`, `December 3rd, 2026`, `1er décembre`, `3 déc. 2026`,
/// `2026년 12월 3일`, `next friday`, `vendredi prochain`, `다음 주 금요일`,
/// `in 3 days`, `dans 2 semaines`, `3일 후`. Words come from the tables
/// (``DateWords``) and month names from ICU, so a new language needs no code.
enum WrittenDate {
    /// The date `text` names, or nil when it is none of the written forms.
    static func parse(_ text: String, today: CivilDate, words: DateWords) -> CivilDate?? {
        let tokens = tokenize(text, words: words)
        guard !tokens.isEmpty else { return nil }
        // A day's word among fillers: `bis morgen`, `明日の`.
        if tokens.count == 1, let offset = words.offsets[tokens[0]] { return .some(today.adding(days: offset)) }
        if let date = relative(tokens, today: today, words: words) { return date }
        if let date = weekday(tokens, today: today, words: words) { return date }
        return calendarDate(tokens, today: today, words: words)
    }

    /// Whether `text` is `in 3 days`, `dans deux semaines`, `3일 후`: one day only.
    static func isRelative(_ text: String, words: DateWords) -> Bool {
        relative(tokenize(text, words: words), today: CivilDate(year: 2026, month: 1, day: 1)!, words: words) != nil
    }

    /// Words and numbers, folded as the tables are: split at spaces, commas
    /// and full stops, and between digits and letters (`3rd`, `1er`, `3일`, `2026년`).
    static func tokenize(_ text: String, words: DateWords) -> [String] {
        let text = WordSegmenter.spaced(text, vocabulary: { words.vocabulary }, fold: words.fold)
        var tokens: [String] = []
        var current = ""
        var currentIsDigit = false
        func flush() {
            let folded = words.fold(current)
            if !folded.isEmpty { tokens.append(folded) }
            current = ""
        }
        for character in text {
            if character.isWhitespace || ",.()/".contains(character) {
                flush()
                continue
            }
            let digit = character.isASCII && character.isNumber
            if !current.isEmpty && digit != currentIsDigit { flush() }
            currentIsDigit = digit
            current.append(character)
        }
        flush()
        return tokens.filter { !words.fillers.contains($0) }
    }

    /// `in 3 days`, `dans 2 semaines`, `3일 후`: a count and a unit, with the language's "in" or "after" word.
    private static func relative(_ tokens: [String], today: CivilDate, words: DateWords) -> CivilDate?? {
        var rest = tokens
        var marked = false
        if let first = rest.first, words.inBefore.contains(first) {
            rest.removeFirst()
            marked = true
        }
        if let last = rest.last, words.inAfter.contains(last) {
            rest.removeLast()
            marked = true
        }
        guard marked, rest.count == 2, let count = rest[0].count <= 7 ? Int(rest[0]) ?? words.numbers[rest[0]] : nil
        else { return nil }
        let days: Int
        if words.dayUnits.contains(rest[1]) {
            days = count
        } else if words.weekUnits.contains(rest[1]) {
            days = count * 7
        } else {
            return nil
        }
        return .some(today.adding(days: days))
    }

    /// `next friday`, `vendredi prochain`, `다음 금요일`: the next such day
    /// (as `friday` alone); `friday next week`, `vendredi de la semaine
    /// prochaine`, `다음 주 금요일`: that day in next week (Monday to Sunday).
    private static func weekday(_ tokens: [String], today: CivilDate, words: DateWords) -> CivilDate?? {
        // `la semaine prochaine`, `next week` alone: the Monday of next week.
        if words.nextWeek.contains(tokens.joined()) { return .some(today.adding(days: 8 - today.isoWeekday)) }
        var tokens = tokens
        // Written without a space (`다음주금요일`, as Korean is often typed): the weekday at its end.
        if !tokens.contains(where: { words.weekdays[$0] != nil }), let last = tokens.last,
            let name = words.weekdays.keys.filter({ $0.count >= 2 && last.count > $0.count && last.hasSuffix($0) })
                .max(by: { $0.count < $1.count })
        {
            tokens[tokens.count - 1] = String(last.dropLast(name.count))
            tokens.append(name)
        }
        guard let index = tokens.firstIndex(where: { words.weekdays[$0] != nil }), let weekday = words.weekdays[tokens[index]]
        else { return nil }
        var rest = tokens
        rest.remove(at: index)
        let phrase = rest.joined()
        // A weekday among fillers (`am Freitag`, `on friday`): the next such day, as alone.
        if phrase.isEmpty {
            let ahead = (weekday - today.isoWeekday + 7) % 7
            return .some(today.adding(days: ahead == 0 ? 7 : ahead))
        }
        if words.thisWeek.contains(phrase) {
            // That day of this week (Monday to Sunday), even one already past.
            return .some(today.adding(days: weekday - today.isoWeekday))
        }
        if words.next.contains(phrase) {
            let ahead = (weekday - today.isoWeekday + 7) % 7
            return .some(today.adding(days: ahead == 0 ? 7 : ahead))
        }
        if words.nextWeek.contains(phrase) {
            return .some(today.adding(days: 7 - today.isoWeekday + weekday))
        }
        return nil
    }

    /// A month by name (or Korean `12월`), a day (`3`, `3rd`, `1er`, `3일`),
    /// an optional year (`2026`, `2026년`) and an optional weekday, in any
    /// order; without a year, the occurrence nearest to today.
    private static func calendarDate(_ tokens: [String], today: CivilDate, words: DateWords) -> CivilDate?? {
        var months = words.months
        if let more = words.moreMonths { months.merge(more()) { first, _ in first } }
        var month: Int?
        var day: Int?
        var year: Int?
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            let next = index + 1 < tokens.count ? tokens[index + 1] : nil
            if let number = Int(token), token.count <= 4 {
                if let next, words.monthMarks.contains(next), month == nil {
                    month = number
                    index += 2
                    continue
                }
                if let next, words.yearMarks.contains(next), year == nil {
                    year = number
                    index += 2
                    continue
                }
                if token.count == 4, year == nil {
                    year = number
                } else if token.count <= 2, day == nil {
                    day = number
                    if let next, words.daySuffixes.contains(next) { index += 1 }
                } else {
                    return nil
                }
            } else if let named = months[token], month == nil {
                month = named
            } else if words.weekdays[token] == nil {
                return nil  // a word that is not part of a date
            }
            index += 1
        }
        guard let month, let day else { return nil }
        guard let year else { return .some(LocalDateFormat.nearest(month: month, day: day, to: today)) }
        return .some(CivilDate(year: year, month: month, day: day))
    }
}
