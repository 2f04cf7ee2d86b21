/// A calendar date with no time or zone: a deadline means that day wherever
/// the reader is (DESIGN.md §4).
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A valid date, or nil (`2026-02-30`, month 13, years outside 1…9999).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            day >= 1, day <= CivilDate.daysIn(month: month, year: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD`.
    public init?(iso text: String) {
        var text = text
        guard let date = text.withUTF8({ CivilDate(isoUTF8: $0) }) else { return nil }
        self = date
    }

    /// A date from the UTF-8 bytes of its ISO form (`YYYY-MM-DD`), or nil.
    init?(isoUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let y = CivilDate.number(bytes[0..<4]), let m = CivilDate.number(bytes[5..<7]),
            let d = CivilDate.number(bytes[8..<10])
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The first day a board can hold, 0001-01-01.
    public static let first = CivilDate(uncheckedYear: 1, month: 1, day: 1)
    /// The last day a board can hold, 9999-12-31.
    public static let last = CivilDate(uncheckedYear: 9999, month: 12, day: 31)

    private init(uncheckedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `daysSince1970` days after 1970-01-01 (negative before), or
    /// nil outside years 1…9999: a date pm could not read back is never made.
    public init?(daysSince1970 days: Int) {
        guard days >= Self.first.daysSince1970, days <= Self.last.daysSince1970 else { return nil }
        let (y, m, d) = Self.fields(daysSince1970: days)
        self.init(uncheckedYear: y, month: m, day: d)
    }

    /// The same date, clamped to years 1…9999.
    public init(clampingDaysSince1970 days: Int) {
        self = CivilDate(daysSince1970: days) ?? (days < 0 ? .first : .last)
    }

    /// Year, month and day of any day count, for formatting instants.
    static func fields(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (y, m, d)
    }

    /// Days since 1970-01-01.
    public var daysSince1970: Int { Self.days(year: year, month: month, day: day) }

    /// Days since 1970-01-01 of any year, month and day (no range check).
    static func days(year: Int, month: Int, day: Int) -> Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date `days` days later (earlier when negative), or nil past the
    /// years a board can hold.
    /// ISO weekday: 1 = Monday … 7 = Sunday (1970-01-01 was a Thursday).
    public var isoWeekday: Int { ((daysSince1970 % 7) + 7 + 3) % 7 + 1 }

    public func adding(days: Int) -> CivilDate? {
        let (sum, overflow) = daysSince1970.addingReportingOverflow(days)
        return overflow ? nil : CivilDate(daysSince1970: sum)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func number<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int? {
        var value = 0
        for byte in bytes {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }
}
