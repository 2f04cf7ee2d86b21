import FoundationEssentials

/// The VTIMEZONE components a calendar needs for the zones its events start
/// in (RFC 5545 §3.6.5: every TZID must have one): each change of offset of
/// the zone, from the first year an event is in to ten years after the last
/// (a series goes on), found from the zone's offsets as pm reads them.
enum CalendarZones {
    /// The lines of one VTIMEZONE for `id` over `years`.
    static func vtimezone(_ id: String, zone: Zone, years: ClosedRange<Int>) -> [String] {
        let day: Int64 = 86_400
        let start = Int64(CivilDate.days(year: years.lowerBound, month: 1, day: 1)) * day
        let end = Int64(CivilDate.days(year: years.upperBound + 1, month: 1, day: 1)) * day
        func offset(_ seconds: Int64) -> Int { zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))) }
        var lines = ["BEGIN:VTIMEZONE", "TZID:" + id]
        var current = offset(start)
        // What is in force when the range begins, then each change.
        var observances = [(at: start, from: current, to: current)]
        var probe = start
        // Offsets change months apart: a week's step, then the second it changed.
        while probe < end {
            let next = min(probe + 7 * day, end)
            let after = offset(next)
            if after != current {
                var (low, high) = (probe, next)
                while high - low > 1 {
                    let middle = (low + high) / 2
                    if offset(middle) == current { low = middle } else { high = middle }
                }
                observances.append((high, current, after))
                current = after
            }
            probe = next
        }
        let offsets = Set(observances.map(\.to))
        for (at, from, to) in observances {
            // Summer time is the larger of a year's offsets.
            let kind = offsets.count > 1 && to == offsets.max() ? "DAYLIGHT" : "STANDARD"
            lines += [
                "BEGIN:" + kind, "DTSTART:" + wallClock(at + Int64(from)), "TZOFFSETFROM:" + offsetText(from),
                "TZOFFSETTO:" + offsetText(to), "END:" + kind,
            ]
        }
        lines.append("END:VTIMEZONE")
        return lines
    }

    /// `20261025T030000`: local seconds since 1970 as a calendar's wall clock.
    static func wallClock(_ local: Int64) -> String {
        let days = Int((local - ((local % 86_400) + 86_400) % 86_400) / 86_400)
        let seconds = Int(((local % 86_400) + 86_400) % 86_400)
        let date = CivilDate(clampingDaysSince1970: days)
        let pad = { (value: Int, width: Int) in String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
        }
        return pad(date.year, 4) + pad(date.month, 2) + pad(date.day, 2) + "T" + pad(seconds / 3600, 2)
            + pad(seconds / 60 % 60, 2) + pad(seconds % 60, 2)
    }

    /// `+0100`, `-0500`, `+0545` (seconds east of Greenwich).
    static func offsetText(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        let text = String(minutes / 60 * 100 + minutes % 60)
        return (seconds < 0 ? "-" : "+") + String(repeating: "0", count: max(0, 4 - text.count)) + text
    }
}
