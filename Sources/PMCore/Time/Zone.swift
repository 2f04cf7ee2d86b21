import FoundationEssentials
import Glibc
import PMICU

/// The viewer's time zone (`TZ`): an IANA zone (`Asia/Seoul`), or a POSIX
/// `TZ` string (`KST-9`, `CET-1CEST,M3.5.0,M10.5.0/3`) as glibc reads it,
/// which ICU does not understand. Named zones' offsets come from the
/// system's ICU.
public struct Zone: Sendable {
    enum Rule: Sendable {
        case named(String)
        case fixed(Int)
        case posix(POSIXTimeZone)
    }

    let rule: Rule

    /// Coordinated Universal Time.
    public static let utc = Zone(rule: .fixed(0))

    private init(rule: Rule) {
        self.rule = rule
    }

    /// An IANA zone (`Asia/Seoul`, `UTC`); nil when neither the system's
    /// zone files nor ICU know it. A zone file is enough: ICU, loaded only
    /// when an offset is asked for, is not needed by a command that never
    /// asks (`pm add`, `pm move`).
    public init?(identifier: String) {
        if Self.utcNames.contains(identifier) {
            rule = .fixed(0)
            return
        }
        guard Self.hasZoneFile(identifier) || ICUTimeZone.isKnown(identifier) else { return nil }
        rule = .named(identifier)
    }

    /// A zone `seconds` east of Greenwich all year.
    public static func fixed(_ seconds: Int) -> Zone { Zone(rule: .fixed(seconds)) }

    /// Its IANA name (`Europe/Paris`, `UTC`); nil for a POSIX `TZ` string or an offset.
    public var identifier: String? {
        switch rule {
        case .named(let id): return id
        case .fixed(0): return "UTC"
        default: return nil
        }
    }

    /// Names of UTC itself, in the zone database and in ICU.
    static let utcNames: Set<String> = ["UTC", "Etc/UTC", "Etc/UCT", "UCT", "Universal", "Etc/Universal", "Zulu", "Etc/Zulu"]

    /// Whether `/usr/share/zoneinfo` has a file for `name` (a plain name:
    /// no `..`, no leading `/`).
    static func hasZoneFile(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count < 128, !name.hasPrefix("/"), !name.split(separator: "/").contains("..")
        else { return false }
        var info = stat()
        return stat("/usr/share/zoneinfo/" + name, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// The system's zone (`/etc/localtime`), UTC when it cannot be told.
    public static func system() -> Zone {
        if let name = localtimeName(), let zone = Zone(identifier: name) { return zone }
        return ICUTimeZone.systemDefault().flatMap { Zone(identifier: $0) } ?? .utc
    }

    /// The zone `/etc/localtime` links to (`…/zoneinfo/Europe/Paris`), as most
    /// systems set it; nil for a copied file.
    static func localtimeName() -> String? {
        var buffer = [CChar](repeating: 0, count: 512)
        let length = readlink("/etc/localtime", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let parts = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: "/")
        guard let at = parts.lastIndex(of: "zoneinfo"), at + 1 < parts.count else { return nil }
        return parts[(at + 1)...].joined(separator: "/")
    }

    /// The zone `TZ` names: `:Asia/Seoul`, `Asia/Seoul`, a POSIX string; UTC
    /// for an empty or unknown value, as glibc does.
    public init(tz value: String) {
        var name = value
        if name.hasPrefix(":") { name.removeFirst() }
        // glibc's order: a zone file of that name first, then the POSIX form.
        let isFile = !name.isEmpty && (name.contains("/") || access("/usr/share/zoneinfo/" + name, F_OK) == 0)
        if isFile, let zone = Zone(identifier: name) {
            self = zone
        } else if let posix = POSIXTimeZone(name) {
            rule = posix.daylight == nil ? .fixed(posix.standard) : .posix(posix)
        } else {
            self = .utc
        }
    }

    /// Seconds east of Greenwich at `date`.
    public func secondsFromGMT(for date: Date) -> Int {
        switch rule {
        case .named(let id):
            // A zone the system's files have and its ICU does not (newer than
            // ICU's data, `posix/…`): ICU would quietly answer GMT.
            guard ICUTimeZone.isKnown(id) else { return Self.glibcSecondsEast(id, at: date.timeIntervalSince1970) ?? 0 }
            return ICUTimeZone.secondsEast(id, atMillis: date.timeIntervalSince1970 * 1000)
                ?? Self.glibcSecondsEast(id, at: date.timeIntervalSince1970) ?? 0
        case .fixed(let offset): return offset
        case .posix(let posix): return posix.secondsEast(at: date.timeIntervalSince1970)
        }
    }

    /// Seconds east of Greenwich in zone file `id` at `seconds`, as glibc
    /// reads it: for a system without ICU. `TZ` is set for the call and put back.
    static func glibcSecondsEast(_ id: String, at seconds: Double) -> Int? {
        guard hasZoneFile(id), seconds.isFinite, abs(seconds) < 1e15 else { return nil }
        let saved = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", ":" + id, 1)
        tzset()
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        var instant = time_t(seconds.rounded(.down))
        var parts = tm()
        guard localtime_r(&instant, &parts) != nil else { return nil }
        return Int(parts.tm_gmtoff)
    }

    /// An identifier ICU formats `date` correctly with: the IANA name, or the
    /// fixed offset in force at that instant (`UTC`, `Etc/GMT-9`, `GMT+05:45`).
    public func icuIdentifier(at date: Date) -> String {
        if case .named(let id) = rule, id.contains("/") || id == "UTC", ICUTimeZone.isKnown(id) {
            return id
        }
        let offset = secondsFromGMT(for: date)
        // Zones ICU finds by name: a custom `GMT+09:00` costs it a number
        // parser built from scratch (~6M instructions, a third of `pm history`).
        if offset == 0 { return "UTC" }
        if offset % 3600 == 0, (-12...14).contains(offset / 3600) {
            // The zone database's signs are POSIX's: Etc/GMT-9 is nine hours east.
            return "Etc/GMT" + (offset > 0 ? "-" : "+") + String(abs(offset) / 3600)
        }
        let minutes = abs(offset) / 60
        let hours = String(minutes / 60)
        let rest = String(minutes % 60)
        return "GMT" + (offset < 0 ? "-" : "+") + (hours.count < 2 ? "0" : "") + hours + ":" + (rest.count < 2 ? "0" : "")
            + rest
    }
}

/// A POSIX `TZ` rule: `std offset [dst [offset] [,start[/time],end[/time]]]`
/// (offsets west-positive, as POSIX writes them).
struct POSIXTimeZone: Sendable, Equatable {
    /// Seconds east of Greenwich in standard time and in daylight time.
    var standard: Int
    var daylight: Int?
    var start: Transition
    var end: Transition

    /// When daylight time starts or ends in a year, in local wall-clock time.
    struct Transition: Sendable, Equatable {
        enum Day: Sendable, Equatable {
            /// `Jn`: day 1…365, February 29 never counted.
            case julianNoLeap(Int)
            /// `n`: day 0…365, February 29 counted.
            case zeroBased(Int)
            /// `Mm.w.d`: the `w`th (5 = last) weekday `d` (0 = Sunday) of month `m`.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }
        var day: Day
        /// Seconds after local midnight (may be negative or past 24 h).
        var time: Int
    }

    init?(_ text: String) {
        var scanner = Scanner(Array(text.unicodeScalars))
        guard scanner.name(), let standardWest = scanner.offset() else { return nil }
        standard = -standardWest
        // glibc's default when a daylight name has no rule: the US rule.
        start = Transition(day: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
        end = Transition(day: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)
        guard !scanner.atEnd else { return }
        guard scanner.name() else { return nil }
        if let west = scanner.offset() { daylight = -west } else { daylight = standard + 3600 }
        if scanner.atEnd { return }
        guard scanner.take(","), let start = scanner.transition(), scanner.take(","), let end = scanner.transition(),
            scanner.atEnd
        else { return nil }
        self.start = start
        self.end = end
    }

    /// Seconds east of Greenwich at an instant (seconds since 1970).
    func secondsEast(at instant: Double) -> Int {
        guard let daylight else { return standard }
        let (year, _, _) = CivilDate.fields(daysSince1970: Int(((instant + Double(standard)) / 86_400).rounded(.down)))
        // Transitions in UTC: the start is in standard time, the end in daylight time.
        let starts = Double(seconds(start, in: year) - standard)
        let ends = Double(seconds(end, in: year) - daylight)
        let inDaylight = starts < ends ? (instant >= starts && instant < ends) : !(instant >= ends && instant < starts)
        return inDaylight ? daylight : standard
    }

    /// Local seconds since 1970 of a transition in `year`.
    private func seconds(_ transition: Transition, in year: Int) -> Int {
        let january1 = CivilDate.days(year: year, month: 1, day: 1)
        let leap = CivilDate.daysIn(month: 2, year: year) == 29
        let day: Int
        switch transition.day {
        case .julianNoLeap(let n): day = january1 + n - 1 + (leap && n >= 60 ? 1 : 0)
        case .zeroBased(let n): day = january1 + n
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilDate.days(year: year, month: month, day: 1)
            // 1970-01-01 was a Thursday (weekday 4).
            let firstWeekday = ((first % 7) + 7 + 4) % 7
            var date = first + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            let length = CivilDate.daysIn(month: month, year: year)
            while date >= first + length { date -= 7 }
            day = date
        }
        return day * 86_400 + transition.time
    }

    /// Reads the pieces of a POSIX `TZ` string.
    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var atEnd: Bool { index == scalars.count }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard index < scalars.count, scalars[index] == character else { return false }
            index += 1
            return true
        }

        /// `KST` (3+ letters) or `<+09>`.
        mutating func name() -> Bool {
            if take("<") {
                let begin = index
                while index < scalars.count, scalars[index] != ">" { index += 1 }
                guard index - begin >= 3, take(">") else { return false }
                return true
            }
            let begin = index
            while index < scalars.count, scalars[index].properties.isAlphabetic, scalars[index].isASCII { index += 1 }
            return index - begin >= 3
        }

        mutating func number(max digits: Int) -> Int? {
            var value = 0
            var count = 0
            while index < scalars.count, count < digits, let digit = Int(String(scalars[index])), scalars[index].isASCII {
                value = value * 10 + digit
                index += 1
                count += 1
            }
            return count > 0 ? value : nil
        }

        /// `[+-]hh[:mm[:ss]]` in seconds.
        mutating func offset() -> Int? {
            let sign = take("-") ? -1 : (take("+") ? 1 : 1)
            guard let hours = number(max: 3), hours <= 167 else { return nil }
            var total = hours * 3600
            if take(":") {
                guard let minutes = number(max: 2), minutes < 60 else { return nil }
                total += minutes * 60
                if take(":") {
                    guard let seconds = number(max: 2), seconds < 60 else { return nil }
                    total += seconds
                }
            }
            return sign * total
        }

        mutating func transition() -> Transition? {
            let day: Transition.Day
            if take("J") {
                guard let n = number(max: 3), (1...365).contains(n) else { return nil }
                day = .julianNoLeap(n)
            } else if take("M") {
                guard let month = number(max: 2), (1...12).contains(month), take("."), let week = number(max: 1),
                    (1...5).contains(week), take("."), let weekday = number(max: 1), weekday <= 6
                else { return nil }
                day = .monthWeekDay(month: month, week: week, weekday: weekday)
            } else {
                guard let n = number(max: 3), n <= 365 else { return nil }
                day = .zeroBased(n)
            }
            var time = 7200
            if take("/") {
                guard let value = offset() else { return nil }
                time = value
            }
            return Transition(day: day, time: time)
        }
    }
}
