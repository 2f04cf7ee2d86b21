import PMICU

/// A locale's short numeric date (`01/12/2026` in French, `12/1/26` in US
/// English, `2026. 12. 1.` in Korean), read through ICU's pattern for that
/// locale so the order of day, month and year is the locale's own.
///
/// Parsing is by the pattern's field order rather than ICU's strict parser,
/// which refuses `1/12/2026` where the pattern says `dd`: people type single
/// digits. Each field must be digits, separators must be the pattern's, and
/// the date must exist.
public struct LocalDateFormat: Sendable {
    enum Field: Sendable { case day, month, year }

    /// The ICU locale id (`fr_FR`).
    public let locale: String
    let order: [Field]
    let separators: Set<Character>

    /// The short date format of `locale`; falls back to month/day/year.
    public init(locale: String) {
        self.locale = locale
        let pattern = ICUDateFormatter(locale: locale, dateStyle: .short, timeStyle: .none, timeZone: "UTC")?.pattern ?? "M/d/yy"
        var order: [Field] = []
        var separators = Set<Character>()
        var inQuote = false
        for character in pattern {
            if character == "'" {
                inQuote.toggle()
                continue
            }
            let field: Field?
            switch character {
            case "d": field = .day
            case "M", "L": field = .month
            case "y", "Y", "u": field = .year
            default: field = nil
            }
            if let field, !inQuote {
                if order.last != field { order.append(field) }
            } else if !character.isLetter {
                separators.insert(character)
            }
        }
        if Set(order).count != 3 || order.count != 3 {
            order = [.month, .day, .year]
            separators = ["/"]
        }
        // A slash is read everywhere (`1/3` in Korean, whose short date is `26. 1. 3.`), in the locale's order.
        separators.insert("/")
        self.order = order
        self.separators = separators
    }

    /// The date `text` names in this locale's short form, or nil. Years are
    /// the locale's own (Buddhist under `th_TH`); a two-digit year is the one
    /// within 80 years before and 20 after `today`'s, as ICU shows them.
    public func parse(_ text: String, today: CivilDate) -> CivilDate? {
        var groups: [(value: Int, digits: Int)] = []
        var digits = ""
        for character in text.trimmingASCIIWhitespace() {
            if character.isASCII, character.isNumber {
                digits.append(character)
                if digits.count > 4 { return nil }
            } else if separators.contains(character) {
                if !digits.isEmpty, let value = Int(digits) {
                    groups.append((value, digits.count))
                    digits = ""
                }
            } else {
                return nil
            }
        }
        if !digits.isEmpty, let value = Int(digits) { groups.append((value, digits.count)) }
        // Without the year (`1/12`, `12. 1.`): the next such day, this year or the next.
        let withoutYear = groups.count == 2
        guard groups.count == 3 || withoutYear else { return nil }
        var day = 0
        var month = 0
        var year = 0
        let fields = withoutYear ? order.filter { $0 != .year } : order
        for (field, group) in zip(fields, groups) {
            switch field {
            case .day: day = group.value
            case .month: month = group.value
            case .year: year = group.digits <= 2 ? expand(twoDigitYear: group.value, today: today) : group.value
            }
        }
        if withoutYear { return Self.nearest(month: month, day: day, to: today) }
        guard let millis = ICUCalendar.millis(locale: locale, year: year, month: month, day: day) else { return nil }
        return CivilDate(daysSince1970: Int((millis / 86_400_000).rounded(.down)))
    }

    /// The date `text` names in the form pm shows dates (ICU's medium style:
    /// `Nov 21, 2026`, `21 nov. 2026`, `21 พ.ย. 2569`), so a shown date can
    /// always be typed back; nil otherwise.
    public func parseShown(_ text: String, today: CivilDate? = nil) -> CivilDate? {
        // The compact form of a card at 80 columns (`Nov 20`, `20 nov.`, `11월 20일`).
        if let today, let formatter = ICUDateFormatter(locale: locale, skeleton: Self.monthDay, timeZone: "UTC"),
            let millis = formatter.parse(text.trimmingASCIIWhitespace()),
            let shown = CivilDate(daysSince1970: Int((millis / 86_400_000).rounded(.down)))
        {
            return Self.nearest(month: shown.month, day: shown.day, to: today)
        }
        guard let formatter = ICUDateFormatter(locale: locale, dateStyle: .medium, timeStyle: .none, timeZone: "UTC"),
            let millis = formatter.parse(text.trimmingASCIIWhitespace())
        else { return nil }
        return CivilDate(daysSince1970: Int((millis / 86_400_000).rounded(.down)))
    }

    /// The ICU skeleton of a month and day without the year.
    public static let monthDay = "MMMd"

    /// A day given without its year: the occurrence nearest to `today` (the
    /// later one on a tie), so `1/5` typed on 20 December is next January
    /// and `11/20` typed on 23 November is three days ago, as shown.
    public static func nearest(month: Int, day: Int, to today: CivilDate) -> CivilDate? {
        let candidates = (today.year - 1...today.year + 1).compactMap { CivilDate(year: $0, month: month, day: day) }
        return candidates.min { a, b in
            let da = abs(a.daysSince1970 - today.daysSince1970)
            let db = abs(b.daysSince1970 - today.daysSince1970)
            return da == db ? a > b : da < db
        }
    }

    /// `date` as briefly as it reads unambiguously: month and day when typing
    /// that back names the same day (within about six months), else the date
    /// with its year, the month in words as everywhere else (`31 déc. 2025`,
    /// never `31/12/2025` beside `20 nov.`: one date style on a screen).
    public func compact(_ date: CivilDate, today: CivilDate) -> String {
        compact(date, today: today, using: CompactFormatters(locale: locale))
    }

    /// The same, with formatters opened once for many dates: opening a
    /// month-and-day formatter builds ICU's pattern generator (about 0.3M
    /// instructions), which once per date was a quarter of a 10k `pm list`.
    public func compact(_ date: CivilDate, today: CivilDate, using formatters: CompactFormatters) -> String {
        if Self.nearest(month: date.month, day: date.day, to: today) == date, let monthDay = formatters.monthDay {
            return monthDay.string(millisecondsSince1970: Double(date.daysSince1970) * 86_400_000)
        }
        return formatters.yearMonthDay?.string(millisecondsSince1970: Double(date.daysSince1970) * 86_400_000)
            ?? date.description
    }

    /// A far date told to its month (`déc. 2025`, `Dec 2025`, `2025년 12월`),
    /// for an overdue card whose whole date does not fit: it still says
    /// when, in words, and leaves room to say it is overdue.
    public func monthOfYear(_ date: CivilDate, using formatters: CompactFormatters) -> String {
        formatters.yearMonth?.string(millisecondsSince1970: Double(date.daysSince1970) * 86_400_000) ?? date.description
    }

    /// The formatters ``compact(_:today:using:)`` needs, each opened on first use.
    public final class CompactFormatters {
        let locale: String
        private var openedMonthDay: ICUDateFormatter??
        private var openedYearMonthDay: ICUDateFormatter??
        private var openedYearMonth: ICUDateFormatter??

        public init(locale: String) { self.locale = locale }

        var monthDay: ICUDateFormatter? {
            if let openedMonthDay { return openedMonthDay }
            let opened = ICUDateFormatter(locale: locale, skeleton: LocalDateFormat.monthDay, timeZone: "UTC")
            openedMonthDay = .some(opened)
            return opened
        }

        var yearMonthDay: ICUDateFormatter? {
            if let openedYearMonthDay { return openedYearMonthDay }
            let opened = ICUDateFormatter(locale: locale, skeleton: "yMMMd", timeZone: "UTC")
            openedYearMonthDay = .some(opened)
            return opened
        }

        var yearMonth: ICUDateFormatter? {
            if let openedYearMonth { return openedYearMonth }
            let opened = ICUDateFormatter(locale: locale, skeleton: "yMMM", timeZone: "UTC")
            openedYearMonth = .some(opened)
            return opened
        }
    }

    /// The year in the locale's calendar ending in `value`, within 80 years
    /// before and 20 after today's.
    private func expand(twoDigitYear value: Int, today: CivilDate) -> Int {
        let current =
            ICUCalendar.year(locale: locale, millis: Double(today.daysSince1970) * 86_400_000) ?? today.year
        var year = current - current % 100 + value
        if year >= current + 20 { year -= 100 } else if year < current - 80 { year += 100 }
        return year
    }

    /// `date` in this locale's short form, as an example for messages.
    public func example(_ date: CivilDate) -> String {
        ICUDateFormatter(locale: locale, dateStyle: .short, timeStyle: .none, timeZone: "UTC")?
            .string(millisecondsSince1970: Double(date.daysSince1970) * 86_400_000) ?? date.description
    }
}
