import PMCore
import PMICU
import PMKit
import PMLocalization

/// Recurring rules in the reader's language (issue 48): read from what
/// they type (``RuleInput``, the words from their table) and said back as
/// pm understood them, weekday names from ICU. What pm says reads back as
/// the same rule.
package struct RecurrenceNames {
    package var localizer: Localizer
    package var style: TextStyle

    package init(localizer: Localizer, style: TextStyle) {
        self.localizer = localizer
        self.style = style
    }

    /// The words of the reader's table.
    package static func words(localizer: Localizer) -> RuleWords {
        var words = RuleWords(fold: { LooseText.fold($0) })
        func each(_ text: String, _ body: (String) -> Void) {
            for word in text.split(separator: "|") where !word.isEmpty && word != "-" { body(String(word)) }
        }
        let units: [(L10nKey, Recurrence.Frequency)] = [
            (.recurWordsDay, .daily), (.recurWordsWeek, .weekly), (.recurWordsMonth, .monthly), (.recurWordsYear, .yearly),
        ]
        for (key, unit) in units { each(localizer.string(key)) { words.add($0) { $0.unit = unit } } }
        let weekdays: [L10nKey] = [
            .dateMonday, .dateTuesday, .dateWednesday, .dateThursday, .dateFriday, .dateSaturday, .dateSunday,
        ]
        for (index, key) in weekdays.enumerated() { each(localizer.string(key)) { words.add($0) { $0.weekday = index + 1 } } }
        each(localizer.string(.recurWordsWorkdays)) { words.add($0) { $0.workdays = true } }
        for (index, forms) in localizer.string(.recurWordsOrdinals).split(separator: "|").enumerated() {
            for form in forms.split(separator: "/") { words.add(String(form)) { $0.ordinal = index + 1 } }
        }
        each(localizer.string(.recurWordsLast)) { words.add($0) { $0.ordinal = -1 } }
        each(localizer.string(.recurWordsEveryOther)) { words.add($0) { $0.other = true } }
        for (index, forms) in localizer.string(.dateNumberWords).split(separator: "|").enumerated() {
            for form in forms.split(separator: "/") { words.add(String(form)) { $0.number = $0.number ?? index + 1 } }
        }
        each(localizer.string(.dateDaySuffixes)) { words.add($0) { $0.daySuffix = true } }
        // A filler is only a filler: a word that means something else too is read as that.
        each(localizer.string(.recurWordsFillers)) { word in
            if words.words[LooseText.fold(word)] == nil { words.add(word) { $0.filler = true } }
        }
        each(localizer.string(.recurWordsEndings)) { words.endings.append(LooseText.fold($0)) }
        return words
    }

    /// The rule `text` gives, in the reader's words or as an RRULE.
    /// - Throws: ``PMError/badRule(_:part:)``, naming what pm could not read.
    package static func parse(_ text: String, localizer: Localizer) throws -> Recurrence {
        try RuleInput.parse(text, words: words(localizer: localizer))
    }

    /// The rule `text` gives and its end, when an RRULE names one (`UNTIL=`).
    package static func parseWithEnd(_ text: String, localizer: Localizer) throws -> (rule: Recurrence, until: CivilDate?) {
        try RuleInput.parseWithEnd(text, words: words(localizer: localizer))
    }

    /// The rule as a phrase: `every Monday and Thursday`, `chaque mois, le
    /// dernier vendredi`, `2주마다 평일`.
    package func describe(_ rule: Recurrence) -> String {
        let l = localizer
        let n = rule.interval
        switch rule.frequency {
        case .daily: return n == 1 ? l.string(.recurDay) : l.string(.recurDays, .number(n))
        case .yearly: return n == 1 ? l.string(.recurYear) : l.string(.recurYears, .number(n))
        case .weekly:
            let every = n == 1 ? l.string(.recurWeek) : l.string(.recurWeeks, .number(n))
            if rule.weekdays == Array(1...5) {
                return n == 1 ? l.string(.recurWorkdays) : l.string(.recurOn, .text(every), .text(l.string(.recurWorkdaysPart)))
            }
            guard !rule.weekdays.isEmpty else { return every }
            if n == 1, rule.weekdays.count == 1 { return l.string(.recurEveryWeekday, .text(weekday(rule.weekdays[0]))) }
            let days = list(rule.weekdays.map { l.string(.recurDayInList, .text(weekday($0))) })
            return n == 1 ? l.string(.recurEveryWeekdays, .text(days)) : l.string(.recurOn, .text(every), .text(days))
        case .monthly:
            let every = n == 1 ? l.string(.recurMonth) : l.string(.recurMonths, .number(n))
            let day: String
            if let nth = rule.nthWeekday {
                day = l.string(.recurNth, .text(ordinal(nth.ordinal)), .text(weekday(nth.weekday)))
            } else if let monthDay = rule.monthDay {
                day =
                    monthDay == -1
                    ? l.string(.recurLastDay)
                    : monthDay == 1 ? l.string(.recurMonthDayFirst) : l.string(.recurMonthDay, .number(monthDay))
            } else {
                return every
            }
            return l.string(.recurOn, .text(every), .text(day))
        }
    }

    /// A series' rule, with the last day it may fall on when it has one.
    package func describe(_ series: Series) -> String {
        guard let until = series.until else { return describe(series.rule) }
        return localizer.string(.recurUntil, .text(describe(series.rule)), .text(style.date(until)))
    }

    /// The rule and the deadline it gives: `every Monday (next: Monday,
    /// November 30, 2026)`; with `after`, the deadline of the occurrence
    /// that will follow the task once done.
    package func echo(_ rule: Recurrence, next: CivilDate?, after: Bool = false) -> String {
        guard let next else { return describe(rule) }
        return localizer.string(after ? .recurAfter : .recurNext, .text(describe(rule)), .text(style.dateWithWeekday(next)))
    }

    /// A weekday's name as ICU writes it in the reader's locale (1 = Monday).
    func weekday(_ number: Int) -> String {
        // 2024-01-01 was a Monday.
        let day = CivilDate(year: 2024, month: 1, day: number) ?? CivilDate.first
        let formatter = ICUDateFormatter(locale: style.formatLocale, skeleton: "EEEE", timeZone: "UTC")
        return formatter?.string(millisecondsSince1970: Double(day.daysSince1970) * 86_400_000) ?? String(number)
    }

    /// An ordinal as the table writes it (its first form).
    private func ordinal(_ ordinal: Int) -> String {
        let text = localizer.string(ordinal == -1 ? .recurWordsLast : .recurWordsOrdinals)
        let positions = text.split(separator: "|")
        let index = ordinal == -1 ? 0 : ordinal - 1
        guard positions.indices.contains(index) else { return String(ordinal) }
        return String(positions[index].split(separator: "/").first ?? positions[index])
    }

    /// Items joined as the table joins a list of days.
    private func list(_ items: [String]) -> String {
        guard var result = items.first else { return "" }
        for (index, item) in items.enumerated().dropFirst() {
            result = localizer.string(index == items.count - 1 ? .recurListAnd : .recurListComma, .text(result), .text(item))
        }
        return result
    }
}
