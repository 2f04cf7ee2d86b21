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
        guard groups.count == 3 else { return nil }
        var day = 0
        var month = 0
        var year = 0
        for (field, group) in zip(order, groups) {
            switch field {
            case .day: day = group.value
            case .month: month = group.value
            case .year: year = group.digits <= 2 ? expand(twoDigitYear: group.value, today: today) : group.value
            }
        }
        guard let millis = ICUCalendar.millis(locale: locale, year: year, month: month, day: day) else { return nil }
        return CivilDate(daysSince1970: Int((millis / 86_400_000).rounded(.down)))
    }

    /// The date `text` names in the form pm shows dates (ICU's medium style:
    /// `Nov 21, 2026`, `21 nov. 2026`, `21 พ.ย. 2569`), so a shown date can
    /// always be typed back; nil otherwise.
    public func parseShown(_ text: String) -> CivilDate? {
        guard let formatter = ICUDateFormatter(locale: locale, dateStyle: .medium, timeStyle: .none, timeZone: "UTC"),
            let millis = formatter.parse(text.trimmingASCIIWhitespace())
        else { return nil }
        return CivilDate(daysSince1970: Int((millis / 86_400_000).rounded(.down)))
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
