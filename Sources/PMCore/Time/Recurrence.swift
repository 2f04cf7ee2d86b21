/// A deadline that comes back (issue 48): a rule in the terms of
/// iCalendar's RRULE (RFC 5545), so that a calendar that reads pm's export
/// expands the series to the very dates pm gives — every N days, weeks
/// (on some days of the week), months (on a day of the month, or the nth
/// weekday of it) or years, counted from the series' first deadline.
///
/// The dates are those of the rule that fall on or after the start, as
/// iCalendar's readers expand them: a day that a month or a year does not
/// have (the 31st, the 29th of February, a fifth Friday) is skipped, never
/// moved to a nearby day.
public struct Recurrence: Hashable, Sendable {
    public enum Frequency: String, CaseIterable, Sendable {
        case daily = "DAILY"
        case weekly = "WEEKLY"
        case monthly = "MONTHLY"
        case yearly = "YEARLY"
    }

    /// The nth weekday of a month (`ordinal` 1…5 from its start, -1…-5
    /// from its end; `weekday` ISO, 1 = Monday … 7 = Sunday).
    public struct NthWeekday: Hashable, Sendable {
        public var ordinal: Int
        public var weekday: Int

        public init(ordinal: Int, weekday: Int) {
            (self.ordinal, self.weekday) = (ordinal, weekday)
        }
    }

    public let frequency: Frequency
    /// Every how many days, weeks, months or years (1…``intervalLimit``).
    public let interval: Int
    /// Weekly: the days of the week it falls on (ISO, sorted, each once);
    /// empty for the start's own day.
    public let weekdays: [Int]
    /// Monthly: the day of the month (1…31, or -1 for the last).
    public let monthDay: Int?
    /// Monthly: the nth weekday of the month.
    public let nthWeekday: NthWeekday?

    /// The longest interval a rule may have.
    public static let intervalLimit = 1000

    /// A rule; nil for one that is not one (an interval out of range, days
    /// of the week for anything but weekly, a day of the month for anything
    /// but monthly, or both kinds of monthly day at once).
    public init?(
        _ frequency: Frequency, interval: Int = 1, weekdays: [Int] = [], monthDay: Int? = nil,
        nthWeekday: NthWeekday? = nil
    ) {
        guard (1...Self.intervalLimit).contains(interval), weekdays.allSatisfy((1...7).contains) else { return nil }
        guard weekdays.isEmpty || frequency == .weekly else { return nil }
        guard (monthDay == nil && nthWeekday == nil) || frequency == .monthly, monthDay == nil || nthWeekday == nil
        else { return nil }
        if let monthDay, !(1...31).contains(monthDay), monthDay != -1 { return nil }
        if let nth = nthWeekday, !(1...5).contains(abs(nth.ordinal)) || !(1...7).contains(nth.weekday) { return nil }
        self.frequency = frequency
        self.interval = interval
        self.weekdays = Array(Set(weekdays)).sorted()
        self.monthDay = monthDay
        self.nthWeekday = nthWeekday
    }

    // MARK: Dates

    /// The first date of the series started on `start` that comes after
    /// `date`; nil when there is none before the end of year 9999.
    public func occurrence(after date: CivilDate, start: CivilDate) -> CivilDate? {
        let from = max(date, start.adding(days: -1) ?? start)
        switch frequency {
        case .daily: return daily(after: from, start: start)
        case .weekly: return weekly(after: from, start: start)
        case .monthly, .yearly: return byMonth(after: from, start: start)
        }
    }

    /// The series' dates from `start` on, the first `count` of them (fewer
    /// when the calendar ends first).
    public func occurrences(start: CivilDate, count: Int) -> [CivilDate] {
        var dates: [CivilDate] = []
        var last = start.adding(days: -1) ?? start
        while dates.count < count, let next = occurrence(after: last, start: start) {
            dates.append(next)
            last = next
        }
        return dates
    }

    private func daily(after date: CivilDate, start: CivilDate) -> CivilDate? {
        let gap = date.daysSince1970 - start.daysSince1970
        let steps = gap < 0 ? 0 : gap / interval + 1
        return CivilDate(daysSince1970: start.daysSince1970 + steps * interval)
    }

    /// Weeks begin on Monday; the weeks of the series are every
    /// `interval`th from the start's.
    private func weekly(after date: CivilDate, start: CivilDate) -> CivilDate? {
        let days = weekdays.isEmpty ? [start.isoWeekday] : weekdays
        let firstMonday = start.daysSince1970 - (start.isoWeekday - 1)
        let weeksSince = max(0, (date.daysSince1970 - firstMonday) / 7)
        var week = weeksSince - weeksSince % interval
        while let monday = CivilDate(daysSince1970: firstMonday + week * 7), monday <= CivilDate.last {
            for day in days {
                let candidate = firstMonday + week * 7 + day - 1
                if candidate > date.daysSince1970, candidate >= start.daysSince1970 {
                    return CivilDate(daysSince1970: candidate)
                }
            }
            week += interval
        }
        return nil
    }

    /// Monthly and yearly: the periods are every `interval`th month (twelve
    /// for a year) from the start's; in each, the day the rule names.
    private func byMonth(after date: CivilDate, start: CivilDate) -> CivilDate? {
        let step = frequency == .yearly ? interval * 12 : interval
        let startIndex = start.year * 12 + start.month - 1
        let dateIndex = date.year * 12 + date.month - 1
        var index = startIndex + max(0, (dateIndex - startIndex) / step) * step
        // A rule that never falls (the 31st of every twelfth April) stops at the calendar's end.
        while index / 12 <= CivilDate.last.year {
            let (year, month) = (index / 12, index % 12 + 1)
            if let day = day(inYear: year, month: month, start: start),
                let candidate = CivilDate(year: year, month: month, day: day),
                candidate > date, candidate >= start
            {
                return candidate
            }
            index += step
        }
        return nil
    }

    /// The day of `month` the rule falls on, if that month has it.
    private func day(inYear year: Int, month: Int, start: CivilDate) -> Int? {
        let length = CivilDate.daysIn(month: month, year: year)
        if let nth = nthWeekday {
            let firstWeekday = (CivilDate(year: year, month: month, day: 1)?.isoWeekday) ?? 1
            let first = (nth.weekday - firstWeekday + 7) % 7 + 1
            if nth.ordinal > 0 {
                let day = first + (nth.ordinal - 1) * 7
                return day <= length ? day : nil
            }
            let last = first + (length - first) / 7 * 7
            let day = last + (nth.ordinal + 1) * 7
            return day >= 1 ? day : nil
        }
        let wanted = monthDay ?? start.day
        if wanted == -1 { return length }
        return wanted <= length ? wanted : nil
    }

    // MARK: iCalendar

    private static let dayNames = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    /// The rule as an RRULE's value: `FREQ=WEEKLY;INTERVAL=2;BYDAY=MO`.
    public var rrule: String {
        var parts = ["FREQ=" + frequency.rawValue]
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        if !weekdays.isEmpty { parts.append("BYDAY=" + weekdays.map { Self.dayNames[$0 - 1] }.joined(separator: ",")) }
        if let monthDay { parts.append("BYMONTHDAY=\(monthDay)") }
        if let nth = nthWeekday { parts.append("BYDAY=\(nth.ordinal)" + Self.dayNames[nth.weekday - 1]) }
        return parts.joined(separator: ";")
    }

    /// A rule read from an RRULE's value in the form ``rrule`` writes (any
    /// order of its parts); nil for anything else, which pm cannot keep.
    public init?(rrule text: String) {
        var fields: [String: String] = [:]
        for part in text.split(separator: ";", omittingEmptySubsequences: false) {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, fields[String(pair[0])] == nil else { return nil }
            fields[String(pair[0])] = String(pair[1])
        }
        guard let frequency = fields.removeValue(forKey: "FREQ").flatMap(Frequency.init(rawValue:)) else { return nil }
        var interval = 1
        if let text = fields.removeValue(forKey: "INTERVAL") {
            guard let read = Int(text), String(read) == text else { return nil }
            interval = read
        }
        var monthDay: Int?
        if let text = fields.removeValue(forKey: "BYMONTHDAY") {
            guard let read = Int(text), String(read) == text else { return nil }
            monthDay = read
        }
        var weekdays: [Int] = []
        var nth: NthWeekday?
        if let text = fields.removeValue(forKey: "BYDAY") {
            for day in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard day.count >= 2, let weekday = Self.dayNames.firstIndex(of: String(day.suffix(2))) else { return nil }
                let ordinal = day.dropLast(2)
                if ordinal.isEmpty {
                    weekdays.append(weekday + 1)
                } else {
                    guard nth == nil, weekdays.isEmpty, text.split(separator: ",").count == 1, let read = Int(ordinal),
                        String(read) == ordinal
                    else { return nil }
                    nth = NthWeekday(ordinal: read, weekday: weekday + 1)
                }
            }
            guard Set(weekdays).count == weekdays.count else { return nil }
        }
        guard fields.isEmpty else { return nil }
        self.init(frequency, interval: interval, weekdays: weekdays, monthDay: monthDay, nthWeekday: nth)
    }
}
