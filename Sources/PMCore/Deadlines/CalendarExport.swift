import PMICU

/// An RFC 5545 calendar of the board's deadlines: one all-day event per task
/// with a deadline that is not done, whose UID is the task's id (so a
/// re-import updates rather than duplicates), with an alarm at the reminder
/// time on the deadline day — unless that day has passed.
public enum CalendarExport {
    /// The `.ics` text: CRLF line ends, lines folded at 75 octets, text escaped.
    /// - Parameters:
    ///   - now: the export time (DTSTAMP), ISO 8601 UTC.
    ///   - alarmText: the alarm's words for a title, in the exporter's language.
    public static func ics(
        _ tasks: [BoardTask], today: CivilDate, now: String, schedule: ReminderSchedule, alarmText: (String) -> String
    ) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//pm//pm kanban board//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
        ]
        for task in tasks where task.state != .done {
            guard let due = task.due else { continue }
            lines += [
                "BEGIN:VEVENT",
                "UID:" + task.id.rawValue,
                "DTSTAMP:" + basic(now),
                "LAST-MODIFIED:" + basic(task.updatedAt),
                "DTSTART;VALUE=DATE:" + compact(due),
                // 9999-12-31 has no next day to end on: a one-day duration says the same.
                due.adding(days: 1).map { "DTEND;VALUE=DATE:" + compact($0) } ?? "DURATION:P1D",
                "SUMMARY:" + escape(task.title),
            ]
            if !task.body.isEmpty { lines.append("DESCRIPTION:" + escape(task.body)) }
            if due >= today {
                // DTSTART is a floating date: local midnight wherever the calendar is.
                lines += [
                    "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:" + escape(alarmText(task.title)),
                    "TRIGGER;RELATED=START:" + duration(schedule.minutesIntoDay), "END:VALARM",
                ]
            }
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined()
    }

    /// TEXT escaping (RFC 5545 §3.3.11); control characters other than
    /// newline and tab, which a calendar may not carry, are shown escaped.
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in TextSafety.escaped(text, keepNewlines: true).unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n": result += "\\n"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A content line folded at 75 octets (never inside a UTF-8 sequence), ending in CRLF.
    static func fold(_ line: String) -> String {
        var result = ""
        var octets = 0
        for scalar in line.unicodeScalars {
            let size = String(scalar).utf8.count
            if octets + size > 75 {
                result += "\r\n "
                octets = 1
            }
            result.unicodeScalars.append(scalar)
            octets += size
        }
        return result + "\r\n"
    }

    static func compact(_ date: CivilDate) -> String {
        date.description.replacingOccurrences(of: "-", with: "")
    }

    /// `2026-11-21T10:00:00.000Z` → `20261121T100000Z`.
    static func basic(_ stored: String) -> String {
        let digits = stored.prefix(19).filter { $0.isNumber }
        guard digits.count == 14 else { return "19700101T000000Z" }
        return String(digits.prefix(8)) + "T" + String(digits.suffix(6)) + "Z"
    }

    /// `PT9H`, `PT7H30M`, `PT0M`.
    static func duration(_ minutes: Int) -> String {
        let hours = minutes / 60
        let rest = minutes % 60
        if rest == 0 { return hours == 0 ? "PT0M" : "PT\(hours)H" }
        return hours == 0 ? "PT\(rest)M" : "PT\(hours)H\(rest)M"
    }
}
