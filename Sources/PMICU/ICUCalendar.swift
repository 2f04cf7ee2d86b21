internal import CICU

/// A locale's own calendar (Gregorian for most, Buddhist under `th_TH`), so
/// that a date shown with the locale's years can be typed back and mean the
/// same day.
public enum ICUCalendar {
    /// Milliseconds since 1970 of that day's UTC midnight, for a year, month
    /// (1-based) and day in `locale`'s calendar; nil for a day that does not exist.
    public static func millis(locale: String, year: Int, month: Int, day: Int) -> Double? {
        guard let year = Int32(exactly: year), let month = Int32(exactly: month), let day = Int32(exactly: day) else {
            return nil
        }
        var status = U_ZERO_ERROR
        let millis = pm_calendar_millis(locale, year, month, day, &status)
        return pm_u_success(status) == 1 ? millis : nil
    }

    /// The year of the instant `millis` in `locale`'s calendar.
    public static func year(locale: String, millis: Double) -> Int? {
        var status = U_ZERO_ERROR
        let year = pm_calendar_year(locale, millis, &status)
        return pm_u_success(status) == 1 ? Int(year) : nil
    }
}
