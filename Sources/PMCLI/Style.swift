import Foundation
import PMCore
import PMICU
import PMLocalization

/// How text looks: colour (or not), and dates in the reader's locale.
struct TextStyle {
    var color: Bool
    var formatLocale: String
    var zone: Zone

    func red(_ text: String) -> String { color ? "\u{1B}[31m" + text + "\u{1B}[0m" : text }
    func bold(_ text: String) -> String { color ? "\u{1B}[1m" + text + "\u{1B}[0m" : text }
    func dim(_ text: String) -> String { color ? "\u{1B}[2m" + text + "\u{1B}[0m" : text }

    /// A deadline in ICU's medium style: `Jan 15, 2020`, `15 janv. 2020`, `2020. 1. 15.`.
    func date(_ date: CivilDate) -> String {
        // A calendar date is formatted at its UTC midnight in UTC, so it is the same day everywhere.
        let formatter = ICUDateFormatter(locale: formatLocale, dateStyle: .medium, timeStyle: .none, timeZone: "UTC")
        return formatter?.string(millisecondsSince1970: Double(date.daysSince1970) * 86_400_000) ?? date.description
    }

    /// A stored timestamp as a medium date and short time in the reader's zone.
    func dateTime(_ stored: String) -> String {
        guard let millis = Timestamp.milliseconds(of: stored),
            let formatter = ICUDateFormatter(
                locale: formatLocale, dateStyle: .medium, timeStyle: .short,
                timeZone: zone.icuIdentifier(at: Date(timeIntervalSince1970: millis / 1000)))
        else { return TextSafety.escaped(stored) }
        return formatter.string(millisecondsSince1970: millis)
    }
}

/// A reusable deadline formatter, for rendering many cards.
final class DeadlineFormatter {
    private let formatter: ICUDateFormatter?
    private var cache: [CivilDate: String] = [:]
    private let due: MessageFormat?
    private let overdue: MessageFormat?

    init(locale: String, localizer: Localizer) {
        formatter = ICUDateFormatter(locale: locale, dateStyle: .medium, timeStyle: .none, timeZone: "UTC")
        due = localizer.format(.cardDue)
        overdue = localizer.format(.cardOverdue)
    }

    /// The card's deadline line: `due Jan 15, 2020` or `Jan 15, 2020 (overdue)`.
    func label(_ date: CivilDate, overdue isOverdue: Bool) -> String {
        let text = string(date)
        return (isOverdue ? overdue : due)?.render([.text(text)]) ?? text
    }

    func string(_ date: CivilDate) -> String {
        if let cached = cache[date] { return cached }
        let text = formatter?.string(millisecondsSince1970: Double(date.daysSince1970) * 86_400_000) ?? date.description
        cache[date] = text
        return text
    }
}
