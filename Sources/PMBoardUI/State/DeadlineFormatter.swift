import PMCore
import PMICU
import PMLocalization

/// A reusable deadline formatter, for rendering many cards.
public final class DeadlineFormatter {
    private let formatter: ICUDateFormatter?
    private var cache: [CivilDate: String] = [:]
    private let due: MessageFormat?
    private let overdue: MessageFormat?

    public init(locale: String, localizer: Localizer) {
        formatter = ICUDateFormatter(locale: locale, dateStyle: .medium, timeStyle: .none, timeZone: "UTC")
        due = localizer.format(.cardDue)
        overdue = localizer.format(.cardOverdue)
    }

    /// The card's deadline line: `due Jan 15, 2020` or `Jan 15, 2020 (overdue)`.
    public func label(_ date: CivilDate, overdue isOverdue: Bool) -> String {
        let text = string(date)
        return (isOverdue ? overdue : due)?.render([.text(text)]) ?? text
    }

    public func string(_ date: CivilDate) -> String {
        if let cached = cache[date] { return cached }
        let text = formatter?.string(millisecondsSince1970: Double(date.daysSince1970) * 86_400_000) ?? date.description
        cache[date] = text
        return text
    }
}
