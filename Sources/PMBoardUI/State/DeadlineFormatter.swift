import PMCore
import PMICU
import PMLocalization

/// A reusable deadline formatter, for rendering many cards.
public final class DeadlineFormatter {
    private let formatter: ICUDateFormatter?
    private var cache: [CivilDate: String] = [:]
    private let due: MessageFormat?
    private let overdue: MessageFormat?

    private let local: LocalDateFormat
    private let compactFormatters: LocalDateFormat.CompactFormatters
    private var compactCache: [CivilDate: String] = [:]
    private struct Fitting: Hashable {
        var date: CivilDate
        /// The time of day (`23:00`, the reader's), for a deadline that has one.
        var time: String?
        var overdue: Bool
        var width: Int
        /// The day it was made on: a board left open past midnight says "due today" of the new day only.
        var today: CivilDate
    }
    private let dueToday: String
    private let dateTime: MessageFormat?
    private let dueTodayAt: MessageFormat?
    private var fittingCache: [Fitting: String] = [:]
    private var last: (key: Fitting, label: String)?

    public init(locale: String, localizer: Localizer) {
        // The month in words, as pm list and every sentence show a date (issue 44, item 24).
        formatter = ICUDateFormatter(locale: locale, skeleton: "yMMMd", timeZone: "UTC")
        local = LocalDateFormat(locale: locale)
        compactFormatters = LocalDateFormat.CompactFormatters(locale: locale)
        due = localizer.format(.cardDue)
        overdue = localizer.format(.cardOverdue)
        dueToday = localizer.string(.cardDueToday)
        dateTime = localizer.format(.dueDateTime)
        dueTodayAt = localizer.format(.cardDueTodayAt)
    }

    /// The card's deadline line: `due Jan 15, 2020` or `Jan 15, 2020 (overdue)`.
    public func label(_ date: CivilDate, overdue isOverdue: Bool) -> String {
        let text = string(date)
        return (isOverdue ? overdue : due)?.render([.text(text)]) ?? text
    }

    /// The deadline line that fits `width` cells, the same in `pm list` and
    /// on the board at any width (one card, one form: issue 44, item 14):
    /// `due today` on its day, else the date as briefly as it reads one way
    /// (`Nov 20` within half a year, else with its year: `Feb 3, 2027`,
    /// the month in words as everywhere) in the card's words, else that
    /// date alone; overdue always says so, a far date then told to its
    /// month (`Dec 2025 (overdue)`) when its whole date leaves no room.
    /// A deadline with a time of day says it after the day (`due Dec 1,
    /// 23:00`): `date` and `time` are then the reader's.
    public func label(
        _ date: CivilDate, time: String? = nil, overdue isOverdue: Bool, fitting width: Int, today: CivilDate
    ) -> String {
        let key = Fitting(date: date, time: time, overdue: isOverdue, width: width, today: today)
        // Cards come in deadline order: the label just made is most often the one asked for.
        if let last, last.key == key { return last.label }
        let label: String
        if let cached = fittingCache[key] {
            label = cached
        } else {
            label = makeLabel(date, time: time, overdue: isOverdue, fitting: width, today: today)
            fittingCache[key] = label
        }
        last = (key, label)
        return label
    }

    private func makeLabel(
        _ date: CivilDate, time: String?, overdue isOverdue: Bool, fitting width: Int, today: CivilDate
    ) -> String {
        let withTime = { (day: String) in time.map { self.dateTime?.render([.text(day), .text($0)]) ?? day + " " + $0 } ?? day }
        if !isOverdue, date == today {
            let todayText = time.map { dueTodayAt?.render([.text($0)]) ?? dueToday + " " + $0 } ?? dueToday
            if TerminalCells.width(of: todayText) <= width { return todayText }
        }
        let day = compactCache[date] ?? local.compact(date, today: today, using: compactFormatters)
        compactCache[date] = day
        let short = withTime(day)
        let worded = (isOverdue ? overdue : due)?.render([.text(short)]) ?? short
        if TerminalCells.width(of: worded) <= width { return worded }
        if isOverdue, time != nil {
            // Overdue says so whole: the time goes before the words do.
            let dayOnly = overdue?.render([.text(day)]) ?? day
            if TerminalCells.width(of: dayOnly) <= width { return dayOnly }
        }
        if isOverdue {
            guard LocalDateFormat.nearest(month: date.month, day: date.day, to: today) != date else { return worded }
            let month = local.monthOfYear(date, using: compactFormatters)
            let told = overdue?.render([.text(month)]) ?? month
            return TerminalCells.width(of: told) < TerminalCells.width(of: worded) ? told : worded
        }
        return short
    }

    public func string(_ date: CivilDate) -> String {
        if let cached = cache[date] { return cached }
        let text = formatter?.string(millisecondsSince1970: Double(date.daysSince1970) * 86_400_000) ?? date.description
        cache[date] = text
        return text
    }
}
