internal import CICU

/// Time zones from the system's ICU: offsets of IANA zones at an instant,
/// daylight saving included.
public enum ICUTimeZone {
    /// Whether ICU knows the zone `id` (`Asia/Seoul`, `UTC`).
    public static func isKnown(_ id: String) -> Bool {
        let units = Array(id.utf16)
        guard !units.isEmpty, units.count < 128 else { return false }
        return pm_zone_known(units, Int32(units.count)) == 1
    }

    /// Seconds east of Greenwich in zone `id` at `millis` since 1970; nil if
    /// ICU cannot open the zone.
    public static func secondsEast(_ id: String, atMillis millis: Double) -> Int? {
        let units = Array(id.utf16)
        var status = U_ZERO_ERROR
        let offset = pm_zone_offset(units, Int32(units.count), millis, &status)
        return pm_u_success(status) == 1 ? Int(offset) / 1000 : nil
    }

    /// The system's zone (`/etc/localtime`), as ICU finds it; nil if it cannot tell.
    public static func systemDefault() -> String? {
        var buffer = [UInt16](repeating: 0, count: 128)
        var status = U_ZERO_ERROR
        let length = pm_zone_default(&buffer, 128, &status)
        guard pm_u_success(status) == 1, length > 0, length <= 128 else { return nil }
        return String(decoding: buffer[0..<Int(length)], as: UTF16.self)
    }
}
