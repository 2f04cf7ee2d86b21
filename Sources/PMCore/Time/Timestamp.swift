import FoundationEssentials

/// ISO 8601 timestamps as the board file stores them: UTC, milliseconds, `Z`.
///
/// Kept as strings in the domain: decoding dates is half of JSON decode time
/// (BENCH.md), and a string round-trips byte for byte.
public enum Timestamp {
    /// `2026-11-21T05:54:48.123Z` for an instant.
    public static func string(from date: Date) -> String {
        let totalMillis = Int((date.timeIntervalSince1970 * 1000).rounded(.down))
        var days = totalMillis / 86_400_000
        var millisOfDay = totalMillis % 86_400_000
        if millisOfDay < 0 {
            millisOfDay += 86_400_000
            days -= 1
        }
        let (year, month, day) = CivilDate.fields(daysSince1970: days)
        let hours = millisOfDay / 3_600_000
        let minutes = millisOfDay / 60_000 % 60
        let seconds = millisOfDay / 1000 % 60
        let millis = millisOfDay % 1000
        return
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(millis, 3))Z"
    }

    /// Parses an ISO 8601 date-time: `YYYY-MM-DDTHH:MM[:SS[.fff]]` followed
    /// by `Z`, `±HH:MM` or `±HHMM`; without a zone the time is local to `timeZone`
    /// (an IANA zone or a POSIX `TZ` string). A lone `YYYY-MM-DD` means
    /// midnight in `timeZone`.
    public static func parse(_ text: String, zone timeZone: Zone) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 10, let date = CivilDate(iso: String(decoding: bytes[0..<10], as: UTF8.self)) else { return nil }
        var index = 10
        var secondsOfDay = 0.0
        if index < bytes.count {
            guard bytes[index] == UInt8(ascii: "T") || bytes[index] == UInt8(ascii: " "), bytes.count >= index + 6,
                let h = CivilDate.number(bytes[(index + 1)..<(index + 3)]), bytes[index + 3] == UInt8(ascii: ":"),
                let m = CivilDate.number(bytes[(index + 4)..<(index + 6)]), h < 24, m < 60
            else { return nil }
            secondsOfDay = Double(h * 3600 + m * 60)
            index += 6
            if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
                guard bytes.count >= index + 3, let s = CivilDate.number(bytes[(index + 1)..<(index + 3)]), s < 61 else {
                    return nil
                }
                secondsOfDay += Double(s)
                index += 3
                if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
                    var scale = 0.1
                    index += 1
                    let start = index
                    while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                        secondsOfDay += Double(bytes[index] - 0x30) * scale
                        scale /= 10
                        index += 1
                    }
                    guard index > start else { return nil }
                }
            }
        }
        let base = Double(date.daysSince1970) * 86_400 + secondsOfDay
        if index == bytes.count {
            // Local time: find the offset that maps back to this wall clock.
            let guess = Date(timeIntervalSince1970: base)
            let offset = timeZone.secondsFromGMT(for: guess)
            let adjusted = Date(timeIntervalSince1970: base - Double(offset))
            return Date(timeIntervalSince1970: base - Double(timeZone.secondsFromGMT(for: adjusted)))
        }
        let rest = bytes[index...]
        if rest.count == 1, rest.first == UInt8(ascii: "Z") || rest.first == UInt8(ascii: "z") {
            return Date(timeIntervalSince1970: base)
        }
        guard let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let digits = Array(rest.dropFirst().filter { $0 != UInt8(ascii: ":") })
        guard digits.count == 4, rest.count == 5 || (rest.count == 6 && rest[index + 3] == UInt8(ascii: ":")),
            let oh = CivilDate.number(digits[0..<2]), let om = CivilDate.number(digits[2..<4]), oh < 24, om < 60
        else { return nil }
        let offset = Double(oh * 3600 + om * 60) * (sign == UInt8(ascii: "+") ? 1 : -1)
        return Date(timeIntervalSince1970: base - offset)
    }

    /// The calendar date of `date` in `timeZone`.
    public static func civilDate(of date: Date, in timeZone: Zone) -> CivilDate {
        let local = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
        return CivilDate(clampingDaysSince1970: Int((local / 86_400).rounded(.down)))
    }

    /// Milliseconds since 1970 of a stored timestamp, or nil if malformed.
    public static func milliseconds(of stored: String) -> Double? {
        parse(stored, zone: .utc)
            .map { $0.timeIntervalSince1970 * 1000 }
    }

    private static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
}
