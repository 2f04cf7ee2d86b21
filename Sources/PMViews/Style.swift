import FoundationEssentials
import PMCore
import PMICU
import PMKit
import PMLocalization

/// How text looks: colour (or not), and dates in the reader's locale.
/// Colour is for a terminal; a front end that marks text otherwise (a web
/// page's classes) makes its style without it.
package struct TextStyle {
    package var color: Bool
    /// The locale dates are written in (`LC_TIME`'s: `fr_FR`, `ko_KR`).
    package var formatLocale: String
    /// The reader's time zone, for stored timestamps.
    package var zone: Zone
    /// Formatters opened by this style, kept for its next date: opening one
    /// costs ICU about 0.2M instructions, formatting with it a few thousand.
    private let formatters = DateFormatters()

    package init(color: Bool, formatLocale: String, zone: Zone) {
        self.color = color
        self.formatLocale = formatLocale
        self.zone = zone
    }

    package func red(_ text: String) -> String { color ? "\u{1B}[31m" + text + "\u{1B}[0m" : text }
    package func bold(_ text: String) -> String { color ? "\u{1B}[1m" + text + "\u{1B}[0m" : text }
    package func dim(_ text: String) -> String { color ? dimCodes.start + text + dimCodes.end : text }
    /// What ``dim(_:)`` puts around a text: nothing without colour.
    package var dimCodes: (start: String, end: String) { color ? ("\u{1B}[2m", "\u{1B}[0m") : ("", "") }

    /// A deadline with its month in words, as the locale writes a date in a
    /// sentence: `Jan 15, 2020`, `15 janv. 2020`, `2020년 1월 15일` (never the
    /// numeric `2020. 1. 15.`, which a Korean particle cannot follow: issue
    /// 44, item 24). The same form in lists, so a screen has one date style.
    package func date(_ date: CivilDate) -> String {
        // A calendar date is formatted at its UTC midnight in UTC, so it is the same day everywhere.
        let formatter = formatters.formatter(locale: formatLocale, skeleton: "yMMMd", zone: "UTC")
        return formatter?.string(millisecondsSince1970: Double(date.daysSince1970) * 86_400_000) ?? date.description
    }

    /// A day with its weekday in words, as a sentence names it: `Friday,
    /// December 4, 2026`, `vendredi 4 décembre 2026`, `2026년 12월 4일 금요일`
    /// (a particle then follows 금요일, not a bracketed `(금)`).
    package func dateWithWeekday(_ date: CivilDate) -> String {
        let formatter = formatters.formatter(locale: formatLocale, skeleton: "yMMMMEEEEd", zone: "UTC")
        return formatter?.string(millisecondsSince1970: Double(date.daysSince1970) * 86_400_000) ?? date.description
    }

    /// A deadline as this reader reads it: a floating day as ``date(_:)``;
    /// a day and time in the reader's zone, on a 24-hour clock as a schedule
    /// writes it, and where its zone differs there, the time it was set in
    /// that zone and the zone's place: `Dec 1, 2026, 23:00 (15:00 in Paris)`.
    package func deadline(_ deadline: Deadline, localizer: Localizer) -> String {
        guard let time = deadline.time, let instant = deadline.instant else { return date(deadline.date) }
        let (day, minutes) = deadline.local(in: zone)
        let here = localizer.string(.dueDateTime, .text(date(day)), .text(DueTime.clockText(minutes: minutes ?? 0)))
        let moment = Date(timeIntervalSince1970: Double(instant))
        guard zone.secondsFromGMT(for: moment) != time.zoneValue.secondsFromGMT(for: moment) else { return here }
        // The time there as its clock showed it (02:30 on the night clocks
        // skip it is 03:30), and its day there when that is another.
        let shownThere = deadline.shown(in: time.zoneValue)
        var there = shownThere.time ?? time.time
        if shownThere.date != day { there = localizer.string(.dueDateTime, .text(date(shownThere.date)), .text(there)) }
        let (place, isOffset) = self.place(of: time, at: moment)
        return localizer.string(isOffset ? .dueElsewhereOffset : .dueElsewhere, .text(here), .text(there), .text(place))
    }

    /// A deadline's time of day without its day (a history line of a time
    /// changed alone): as it was set, its zone's place named when it is not
    /// the reader's: `15:00`, `15:00 in Paris`, `파리 기준 15:00`.
    /// `naming`: the zone is named even when it is the reader's (the other
    /// time of a change said beside it has another zone).
    package func timeOfDay(_ time: DueTime, localizer: Localizer, naming: Bool = false) -> String {
        if time.zone == zone.identifier, !naming { return time.time }
        // A place's name does not change with the date; an offset's is the offset.
        let (place, isOffset) = self.place(of: time, at: Date(timeIntervalSince1970: 0))
        return isOffset ? time.time + " " + place : localizer.string(.dueTimeElsewhere, .text(time.time), .text(place))
    }

    /// A zone's place as the reader's locale names it (`Paris`, `파리`), safe
    /// to print; or, for a zone that is an offset (`+09:00`, `UTC`,
    /// `Etc/GMT-3`), that offset (`UTC+09:00`), and true.
    private func place(of time: DueTime, at moment: Date) -> (String, Bool) {
        let zoneValue = time.zoneValue
        guard time.zone.contains("/"), !time.zone.hasPrefix("Etc/"), ICUTimeZone.isKnown(time.zone) else {
            guard time.zone == "UTC" || DueTime.fixedOffset(time.zone) != nil || Zone(identifier: time.zone) != nil else {
                // A zone from another machine that this one does not know (read as UTC): its name as written.
                return (TextSafety.escaped(time.zone), false)
            }
            let offset = zoneValue.secondsFromGMT(for: moment)
            return (offset == 0 ? "UTC" : "UTC" + DueTime.offsetText(offset), true)
        }
        let formatter = formatters.formatter(locale: formatLocale, skeleton: "VVV", zone: time.zone)
        let name = formatter?.string(millisecondsSince1970: moment.timeIntervalSince1970 * 1000) ?? ""
        let unknown = formatters.formatter(locale: formatLocale, skeleton: "VVV", zone: "Etc/Unknown")?
            .string(millisecondsSince1970: 0)
        // ICU's name for a place it has none for: the zone's own last part then.
        if name.isEmpty || name == unknown || name.contains("GMT") || name.contains("UTC") {
            return (TextSafety.escaped(String(time.zone.split(separator: "/").last ?? "").replacing("_", with: " ")), false)
        }
        return (TextSafety.escaped(name), false)
    }

    /// A stored timestamp as such a date and a short time in the reader's zone.
    package func dateTime(_ stored: String) -> String { format(stored, skeleton: "yMMMdjmm") }

    /// A stored timestamp's time of day alone, in the reader's zone (`2:05 PM`, `14:05`, `오후 2:05`).
    package func time(_ stored: String) -> String { format(stored, skeleton: "jmm") }

    /// A moment inside a sentence, joined as the locale joins a date and a
    /// time in prose: `on November 21, 2026 at 7:05 PM`, `le 21 novembre 2026
    /// à 19:05`, `2026년 11월 21일 오후 7:05에`.
    package func momentInSentence(_ stored: String) -> String {
        guard let millis = Timestamp.milliseconds(of: stored),
            let formatter = formatters.formatter(
                locale: formatLocale, date: .long, time: .short,
                zone: zone.icuIdentifier(at: Date(timeIntervalSince1970: millis / 1000)))
        else { return TextSafety.escaped(stored) }
        return formatter.string(millisecondsSince1970: millis)
    }

    private func format(_ stored: String, skeleton: String) -> String {
        guard let millis = Timestamp.milliseconds(of: stored),
            let formatter = formatters.formatter(
                locale: formatLocale, skeleton: skeleton,
                zone: zone.icuIdentifier(at: Date(timeIntervalSince1970: millis / 1000)))
        else { return TextSafety.escaped(stored) }
        return formatter.string(millisecondsSince1970: millis)
    }
}

/// ICU date formatters by what they show, each opened once.
final class DateFormatters {
    private struct Key: Hashable {
        var locale: String
        var date: ICUDateStyle
        var time: ICUDateStyle
        var zone: String
    }
    private var opened: [Key: ICUDateFormatter?] = [:]

    func formatter(locale: String, date: ICUDateStyle, time: ICUDateStyle, zone: String) -> ICUDateFormatter? {
        let key = Key(locale: locale, date: date, time: time, zone: zone)
        if let known = opened[key] { return known }
        let formatter = ICUDateFormatter(locale: locale, dateStyle: date, timeStyle: time, timeZone: zone)
        opened[key] = .some(formatter)
        return formatter
    }

    private var bySkeleton: [String: ICUDateFormatter?] = [:]

    /// The locale's best pattern for `skeleton` (`yMMMd`).
    func formatter(locale: String, skeleton: String, zone: String) -> ICUDateFormatter? {
        let key = locale + "|" + skeleton + "|" + zone
        if let known = bySkeleton[key] { return known }
        let formatter = ICUDateFormatter(locale: locale, skeleton: skeleton, timeZone: zone)
        bySkeleton[key] = .some(formatter)
        return formatter
    }
}
