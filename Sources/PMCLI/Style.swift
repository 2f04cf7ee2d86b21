import FoundationEssentials
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
    func dim(_ text: String) -> String { color ? dimCodes.start + text + dimCodes.end : text }
    /// What ``dim(_:)`` puts around a text: nothing without colour.
    var dimCodes: (start: String, end: String) { color ? ("\u{1B}[2m", "\u{1B}[0m") : ("", "") }

    /// A deadline in ICU's medium style: `Jan 15, 2020`, `15 janv. 2020`, `2020. 1. 15.`.
    func date(_ date: CivilDate) -> String {
        // A calendar date is formatted at its UTC midnight in UTC, so it is the same day everywhere.
        let formatter = ICUDateFormatter(locale: formatLocale, dateStyle: .medium, timeStyle: .none, timeZone: "UTC")
        return formatter?.string(millisecondsSince1970: Double(date.daysSince1970) * 86_400_000) ?? date.description
    }

    /// A stored timestamp as a medium date and short time in the reader's zone.
    func dateTime(_ stored: String) -> String { format(stored, date: .medium) }

    /// A stored timestamp's time of day alone, in the reader's zone (`2:05 PM`, `14:05`, `오후 2:05`).
    func time(_ stored: String) -> String { format(stored, date: ICUDateStyle.none) }

    private func format(_ stored: String, date: ICUDateStyle) -> String {
        guard let millis = Timestamp.milliseconds(of: stored),
            let formatter = ICUDateFormatter(
                locale: formatLocale, dateStyle: date, timeStyle: .short,
                timeZone: zone.icuIdentifier(at: Date(timeIntervalSince1970: millis / 1000)))
        else { return TextSafety.escaped(stored) }
        return formatter.string(millisecondsSince1970: millis)
    }
}
