import FoundationEssentials

/// The time of day of a deadline that has one, and the zone it was set in
/// (issue 48): `15:00` in `Europe/Paris` is one instant, shown to each reader
/// in their own zone. A deadline without one stays a floating calendar day.
///
/// The card keeps it in a log field of its own, `dueTime`, beside `due` (the
/// day, in this zone): a pm that does not know the field keeps it as it is
/// and still shows the day. Each merges by the usual rule: a day moved on
/// one copy and a time moved on another at once both stay; two times (or
/// two days) set at once are a conflict, as any field's.
public struct DueTime: Hashable, Sendable {
    public var hour: Int
    public var minute: Int
    /// An IANA zone (`Europe/Paris`), `UTC`, or a fixed offset (`+09:00`).
    public var zone: String

    public init?(hour: Int, minute: Int, zone: String) {
        guard (0..<24).contains(hour), (0..<60).contains(minute), Self.isZoneName(zone) else { return nil }
        self.hour = hour
        self.minute = minute
        self.zone = zone
    }

    /// `HH:MM`.
    public var time: String { Self.clockText(minutes: hour * 60 + minute) }

    /// `HH:MM` of minutes into a day, on a 24-hour clock.
    public static func clockText(minutes: Int) -> String {
        let (hour, minute) = (minutes / 60, minutes % 60)
        return (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
    }

    /// The log's and the board file's value: `{"time": "15:00", "zone": "Europe/Paris"}`.
    public var value: JSONValue { .object(["time": .string(time), "zone": .string(zone)]) }

    /// The time a value holds; nil for anything pm would not write.
    public init?(value: JSONValue) {
        guard case .object(let members) = value, members.count == 2, case .string(let time)? = members["time"],
            case .string(let zone)? = members["zone"], let (hour, minute) = Self.clock(time)
        else { return nil }
        self.init(hour: hour, minute: minute, zone: zone)
    }

    /// `HH:MM` with two digits each; nil for anything else.
    static func clock(_ text: String) -> (Int, Int)? {
        let bytes = Array(text.utf8)
        guard bytes.count == 5, bytes[2] == UInt8(ascii: ":"),
            [0, 1, 3, 4].allSatisfy({ (0x30...0x39).contains(bytes[$0]) })
        else { return nil }
        let hour = Int(bytes[0] - 0x30) * 10 + Int(bytes[1] - 0x30)
        let minute = Int(bytes[3] - 0x30) * 10 + Int(bytes[4] - 0x30)
        return hour < 24 && minute < 60 ? (hour, minute) : nil
    }

    /// A zone name as pm writes one: an IANA name (letters, digits, `/`,
    /// `_`, `-`, `+`; no `..`; at most 64 bytes), or `±HH:MM`. A zone this
    /// system does not know is kept, and read as UTC (``zoneValue``).
    public static func isZoneName(_ name: String) -> Bool {
        if fixedOffset(name) != nil { return true }
        let bytes = Array(name.utf8)
        guard (1...64).contains(bytes.count), let first = bytes.first,
            (0x41...0x5A).contains(first) || (0x61...0x7A).contains(first),
            !name.contains(".."), !name.hasSuffix("/"), !name.contains("//"),
            // Names that mean another zone on each machine or none (files of the
            // zone folder that are not zones), leap-second clocks, ICU's made-up offsets (`GMT+2359`).
            !["localtime", "posixrules", "Factory", "leapseconds", "Etc/Unknown", "SECURITY"].contains(name),
            !name.hasPrefix("right/"), !name.hasPrefix("GMT+"), !name.hasPrefix("GMT-"), !name.hasPrefix("UTC+"),
            !name.hasPrefix("UTC-")
        else { return false }
        return bytes.allSatisfy { byte in
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || [UInt8(ascii: "/"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "+")].contains(byte)
        }
    }

    /// Seconds east of `+HH:MM` / `-HH:MM` (a POSIX `TZ` may be up to 23:59 from Greenwich); nil for anything else.
    public static func fixedOffset(_ name: String) -> Int? {
        let bytes = Array(name.utf8)
        guard bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
            let (hours, minutes) = clock(String(name.dropFirst()))
        else { return nil }
        let offset = (bytes[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
        // The offsets clocks keep: from 12 hours west to 14 east.
        return (-12 * 3600...14 * 3600).contains(offset) ? offset : nil
    }

    /// The zone it names, as this system knows it; UTC for a zone it does not.
    public var zoneValue: Zone {
        if let offset = Self.fixedOffset(zone) { return Zone.fixed(offset) }
        return Zone(identifier: zone) ?? .utc
    }

    /// The zone a deadline typed by a reader in `zone` is kept in: its IANA
    /// name, or (a POSIX `TZ` string) the offset in force at that time on
    /// `date` (summer time's, on a summer day).
    public static func zoneName(of zone: Zone, on date: CivilDate, hour: Int, minute: Int) -> String {
        if let name = zone.identifier, isZoneName(name) { return name }
        let local = Int64(date.daysSince1970) * 86_400 + Int64(hour * 3600 + minute * 60)
        // The offset that makes it the instant a named zone would give (in a
        // gap, the offset before: 02:30 is 03:30 summer time).
        return offsetName(Int(local - instant(local: local, in: zone)))
    }

    /// Whether this time on `date` falls within the years a board holds (in UTC).
    public func isWithinYears(on date: CivilDate) -> Bool {
        let local = Int64(date.daysSince1970) * 86_400 + Int64(hour * 3600 + minute * 60)
        return instant(on: date) == Self.instant(local: local, in: zoneValue)
    }

    /// The zone an instant read in `zone` is kept in: its IANA name, or the offset then.
    public static func zoneName(of zone: Zone, at instant: Int64) -> String {
        if let name = zone.identifier, isZoneName(name) { return name }
        return offsetName(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
    }

    /// `+09:00`, `-03:30`.
    public static func offsetText(_ offset: Int) -> String { offsetName(offset) }

    static func offsetName(_ offset: Int) -> String {
        let minutes = abs(offset) / 60
        let text =
            (minutes / 60 < 10 ? "0" : "") + String(minutes / 60) + ":" + (minutes % 60 < 10 ? "0" : "")
            + String(minutes % 60)
        return (offset < 0 ? "-" : "+") + text
    }

    /// The instant this time falls at on `date` (its day in this zone), in
    /// seconds since 1970. A time a change of clocks skips (02:30 on the
    /// night summer time starts) is the same time of the offset before, an
    /// hour later on the clock; a time that happens twice is the first.
    /// Kept within the years a board holds (0001 to 9999 in UTC).
    public func instant(on date: CivilDate) -> Int64 {
        let local = Int64(date.daysSince1970) * 86_400 + Int64(hour * 3600 + minute * 60)
        let first = Int64(CivilDate.first.daysSince1970) * 86_400
        let last = Int64(CivilDate.last.daysSince1970) * 86_400 + 86_399
        return min(max(Self.instant(local: local, in: zoneValue), first), last)
    }

    /// The instant of a wall-clock time (`local`: seconds since 1970 as if
    /// in UTC) in `zone`.
    static func instant(local: Int64, in zone: Zone) -> Int64 {
        func offset(_ seconds: Int64) -> Int64 {
            Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
        }
        // The offsets a day before and after: the earlier is in force for the
        // first of two same times, and across a gap.
        let before = offset(local - 86_400)
        let after = offset(local + 86_400)
        let first = local - before
        if offset(first) == before { return first }
        let second = local - after
        return offset(second) == after ? second : first
    }
}

/// A deadline as a reader sees it: a floating day, or a day and a time in
/// the deadline's zone.
public struct Deadline: Hashable, Sendable {
    public var date: CivilDate
    public var time: DueTime?

    public init(date: CivilDate, time: DueTime? = nil) {
        self.date = date
        self.time = time
    }

    /// As `--due` takes it back, the same in every language:
    /// `2026-12-01`, `2026-12-01 15:00 Europe/Paris`.
    public var typed: String { date.description + (time.map { " " + $0.time + " " + $0.zone } ?? "") }

    /// The instant it falls at; nil for a floating day.
    public var instant: Int64? { time?.instant(on: date) }

    /// Its day and time of day in `zone`: the day itself for a floating day.
    public func local(in zone: Zone) -> (date: CivilDate, minutes: Int?) {
        guard let instant else { return (date, nil) }
        let offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
        let local = instant + offset
        let days = Int((local - ((local % 86_400) + 86_400) % 86_400) / 86_400)
        return (CivilDate(clampingDaysSince1970: days), Int(((local % 86_400) + 86_400) % 86_400) / 60)
    }

    /// Its day and time of day (`HH:MM`, nil for a floating day) in `zone`.
    public func shown(in zone: Zone) -> (date: CivilDate, time: String?) {
        let (day, minutes) = local(in: zone)
        return (day, minutes.map { DueTime.clockText(minutes: $0) })
    }

    /// Whether it has passed at `now` for a reader in `zone`: a floating day
    /// once that day is over where they are, a time once it is reached.
    public func hasPassed(now: Date, zone: Zone) -> Bool {
        if let instant { return Int64(now.timeIntervalSince1970.rounded(.down)) >= instant }
        return date < Timestamp.civilDate(of: now, in: zone)
    }

    /// Its place in the board's reading order: the instant, a floating day
    /// at its end in UTC (a day's deadline is met until it is over).
    public var sortKey: Int64 { instant ?? (Int64(date.daysSince1970) + 1) * 86_400 - 1 }
}
