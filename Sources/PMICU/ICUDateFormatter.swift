internal import CICU
import Synchronization

/// How much of a date or time an ``ICUDateFormatter`` shows.
public enum ICUDateStyle: Sendable {
    case none, short, medium, long

    var rawICU: Int32 {
        switch self {
        case .none: return -1
        case .short: return 3
        case .medium: return 2
        case .long: return 1
        }
    }
}

/// A locale's date (and time) format, through ICU's `udat` API.
///
/// Instances are not thread-safe; make one per use site.
public final class ICUDateFormatter {
    private let format: OpaquePointer
    /// How a language writes the first of a month when not as a number
    /// (French `1er décembre`, `1er déc.`), which no ICU pattern can say:
    /// put in after formatting. From the tables (`date.firstDay`).
    private var firstDay: String?

    /// The first day's form of each language that writes it apart, by
    /// language code (registered from the tables: no code names a language).
    private static let firstDays = Mutex<[String: String]>([:])

    /// Dates in `language` write the first of a month as `form` (`1er`).
    public static func writeFirstDay(as form: String, language: String) {
        firstDays.withLock { $0[language] = form }
    }

    /// The first day's form for `locale` (`fr_FR`, `fr-CA`, `fr@calendar=…`), if its language has one.
    static func firstDay(for locale: String) -> String? {
        let language = String(locale.prefix { $0.isLetter })
        return firstDays.withLock { $0[language] }
    }

    /// Opens a formatter, or returns nil when ICU refuses the arguments.
    /// - Parameters:
    ///   - locale: an ICU locale id such as `fr_FR` or `ko`.
    ///   - timeZone: an Olson id such as `Asia/Seoul`; nil for ICU's default.
    public init?(locale: String, dateStyle: ICUDateStyle, timeStyle: ICUDateStyle, timeZone: String?) {
        var status = U_ZERO_ERROR
        let opened: OpaquePointer?
        if let timeZone {
            let zone = Array(timeZone.utf16)
            opened = zone.withUnsafeBufferPointer { buffer in
                pm_udat_open(timeStyle.rawICU, dateStyle.rawICU, locale, buffer.baseAddress, Int32(buffer.count), &status)
            }
        } else {
            opened = pm_udat_open(timeStyle.rawICU, dateStyle.rawICU, locale, nil, -1, &status)
        }
        guard pm_u_success(status) == 1, let opened else { return nil }
        format = opened
        firstDay = Self.firstDay(for: locale)
    }

    /// Opens a formatter for the locale's best pattern for `skeleton`
    /// (`MMMd`: month and day in the locale's order and words), or nil.
    public init?(locale: String, skeleton: String, timeZone: String) {
        var status = U_ZERO_ERROR
        let zone = Array(timeZone.utf16)
        let fields = Array(skeleton.utf16)
        let opened = zone.withUnsafeBufferPointer { zoneBuffer in
            fields.withUnsafeBufferPointer { fieldBuffer in
                pm_udat_open_skeleton(
                    locale, fieldBuffer.baseAddress, Int32(fieldBuffer.count), zoneBuffer.baseAddress, Int32(zoneBuffer.count),
                    &status)
            }
        }
        guard pm_u_success(status) == 1, let opened else { return nil }
        format = opened
        firstDay = Self.firstDay(for: locale)
    }

    deinit { pm_udat_close(format) }

    /// Formats an instant given in milliseconds since 1970-01-01T00:00:00Z.
    public func string(millisecondsSince1970 millis: Double) -> String {
        var capacity: Int32 = 64
        while true {
            var status = U_ZERO_ERROR
            var buffer = [UInt16](repeating: 0, count: Int(capacity))
            let length = pm_udat_format(format, millis, &buffer, capacity, &status)
            if status == U_BUFFER_OVERFLOW_ERROR, length > capacity {
                capacity = length + 1
                continue
            }
            guard pm_u_success(status) == 1 else { return "" }
            let text = String(decoding: buffer[0..<Int(length)], as: UTF16.self)
            return firstDay.map { Self.first(text, as: $0) } ?? text
        }
    }

    /// `1 déc. 2026` → `1er déc. 2026` (`form` = `1er`): a day `1` standing
    /// alone (at the start or after a space) and followed by a space and a word.
    static func first(_ text: String, as form: String) -> String {
        let scalars = Array(text.unicodeScalars)
        func isSpace(_ index: Int) -> Bool { scalars[index].properties.isWhitespace }
        for index in scalars.indices where scalars[index] == "1" {
            guard index == 0 || isSpace(index - 1), index + 2 < scalars.count, isSpace(index + 1),
                scalars[index + 2].properties.isAlphabetic
            else { continue }
            var result = String.UnicodeScalarView(scalars[..<index])
            result.append(contentsOf: form.unicodeScalars)
            result.append(contentsOf: scalars[(index + 1)...])
            return String(result)
        }
        return text
    }

    /// Parses `text` strictly; nil unless the whole text is one valid date.
    /// - Returns: milliseconds since 1970 in the formatter's time zone.
    public func parse(_ text: String) -> Double? {
        pm_udat_set_lenient(format, 0)
        let units = Array(text.utf16)
        var status = U_ZERO_ERROR
        var parsedTo: Int32 = 0
        let millis = units.withUnsafeBufferPointer { buffer in
            pm_udat_parse(format, buffer.baseAddress, Int32(buffer.count), &parsedTo, &status)
        }
        guard pm_u_success(status) == 1, Int(parsedTo) == units.count else { return nil }
        return millis
    }

    /// The pattern ICU uses (`d/M/yy`, `y. M. d.`), for showing accepted forms.
    public var pattern: String {
        var status = U_ZERO_ERROR
        var buffer = [UInt16](repeating: 0, count: 128)
        let length = pm_udat_to_pattern(format, &buffer, 128, &status)
        guard pm_u_success(status) == 1, length <= 128 else { return "" }
        return String(decoding: buffer[0..<Int(length)], as: UTF16.self)
    }
}
