internal import CICU

/// How a locale writes numbers, through ICU; nil without it.
public enum ICUNumbers {
    /// An integer as `locale` writes it: `1 234` in French (a narrow no-break
    /// space), `1,234` in English and Korean.
    public static func formatted(_ value: Int, locale: String) -> String? {
        var status = U_ZERO_ERROR
        var buffer = [UInt16](repeating: 0, count: 64)
        let length = pm_unum_format(locale, Int64(value), &buffer, 64, &status)
        guard pm_u_success(status) == 1, length > 0, length <= 64 else { return nil }
        return String(decoding: buffer[0..<Int(length)], as: UTF16.self)
    }

    /// The mark between a number's whole and its fraction in `locale`: `,` in French.
    public static func decimalSeparator(locale: String) -> String? {
        var status = U_ZERO_ERROR
        var buffer = [UInt16](repeating: 0, count: 8)
        let length = pm_unum_decimal_separator(locale, &buffer, 8, &status)
        guard pm_u_success(status) == 1, length > 0, length <= 8 else { return nil }
        return String(decoding: buffer[0..<Int(length)], as: UTF16.self)
    }
}
