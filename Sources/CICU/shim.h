// Static inline wrappers over the ICU C API.
//
// Debian's ICU headers rename every entry point with a version suffix
// (udat_open -> udat_open_72) through function-like macros that Swift cannot
// see through. Calling the functions from C inline wrappers lets the C
// preprocessor do the renaming. Only what pm uses is wrapped.
#ifndef PM_CICU_SHIM_H
#define PM_CICU_SHIM_H

#include <unicode/utypes.h>
#include <unicode/uchar.h>
#include <unicode/udat.h>
#include <unicode/ucal.h>
#include <unicode/unorm2.h>
#include <unicode/upluralrules.h>
#include <unicode/ucol.h>
#include <unicode/usearch.h>
#include <unicode/uloc.h>
#include <unicode/udatpg.h>

// MARK: Dates

/// Opens a date formatter. date_style/time_style: UDAT_NONE = -1,
/// UDAT_SHORT = 3, UDAT_MEDIUM = 2. tz may be NULL for the default zone.
static inline UDateFormat *pm_udat_open(int32_t time_style, int32_t date_style,
                                        const char *locale, const UChar *tz,
                                        int32_t tz_length, UErrorCode *status) {
    return udat_open((UDateFormatStyle)time_style, (UDateFormatStyle)date_style,
                     locale, tz, tz_length, NULL, 0, status);
}

/// Opens a date formatter for the locale's best pattern for a skeleton
/// (`MMMd`: `Nov 20`, `20 nov.`, `11월 20일`).
static inline UDateFormat *pm_udat_open_skeleton(const char *locale, const UChar *skeleton,
                                                 int32_t skeleton_length, const UChar *tz,
                                                 int32_t tz_length, UErrorCode *status) {
    UDateTimePatternGenerator *generator = udatpg_open(locale, status);
    if (U_FAILURE(*status) || generator == NULL) return NULL;
    UChar pattern[96];
    int32_t length = udatpg_getBestPattern(generator, skeleton, skeleton_length, pattern, 96, status);
    udatpg_close(generator);
    if (U_FAILURE(*status) || length >= 96) return NULL;
    return udat_open(UDAT_PATTERN, UDAT_PATTERN, locale, tz, tz_length, pattern, length, status);
}

static inline void pm_udat_close(UDateFormat *format) { udat_close(format); }

static inline int32_t pm_udat_format(const UDateFormat *format, double millis,
                                     UChar *result, int32_t capacity,
                                     UErrorCode *status) {
    return udat_format(format, millis, result, capacity, NULL, status);
}

static inline void pm_udat_set_lenient(UDateFormat *format, int lenient) {
    udat_setLenient(format, lenient ? 1 : 0);
}

/// Parses text entirely; *parsed_to receives how far parsing got.
static inline double pm_udat_parse(const UDateFormat *format, const UChar *text,
                                   int32_t length, int32_t *parsed_to,
                                   UErrorCode *status) {
    *parsed_to = 0;
    return udat_parse(format, text, length, parsed_to, status);
}

static inline int32_t pm_udat_to_pattern(const UDateFormat *format, UChar *result,
                                         int32_t capacity, UErrorCode *status) {
    return udat_toPattern(format, 0, result, capacity, status);
}

// MARK: Plural rules

static inline UPluralRules *pm_uplrules_open(const char *locale, UErrorCode *status) {
    return uplrules_open(locale, status);
}

static inline void pm_uplrules_close(UPluralRules *rules) { uplrules_close(rules); }

static inline int32_t pm_uplrules_select(const UPluralRules *rules, double number,
                                         UChar *keyword, int32_t capacity,
                                         UErrorCode *status) {
    return uplrules_select(rules, number, keyword, capacity, status);
}

// MARK: Collation

static inline UCollator *pm_ucol_open(const char *locale, UErrorCode *status) {
    return ucol_open(locale, status);
}

static inline void pm_ucol_close(UCollator *collator) { ucol_close(collator); }

/// Returns -1, 0 or 1.
static inline int32_t pm_ucol_strcoll_utf8(const UCollator *collator,
                                           const char *a, int32_t a_length,
                                           const char *b, int32_t b_length,
                                           UErrorCode *status) {
    return (int32_t)ucol_strcollUTF8(collator, a, a_length, b, b_length, status);
}

/// Compares at the primary level only: case and accents do not count.
static inline void pm_ucol_set_primary(UCollator *collator, UErrorCode *status) {
    ucol_setAttribute(collator, UCOL_STRENGTH, UCOL_PRIMARY, status);
}

/// Whether `pattern` occurs in `text` by the collator's rules (1 or 0), or
/// -1 when ICU refuses.
static inline int32_t pm_usearch_contains(const UChar *pattern, int32_t pattern_length,
                                          const UChar *text, int32_t text_length,
                                          UCollator *collator) {
    UErrorCode status = U_ZERO_ERROR;
    UStringSearch *search = usearch_openFromCollator(pattern, pattern_length, text, text_length,
                                                     collator, NULL, &status);
    if (U_FAILURE(status) || search == NULL) { return -1; }
    int32_t found = usearch_first(search, &status);
    usearch_close(search);
    if (U_FAILURE(status)) { return -1; }
    return found == USEARCH_DONE ? 0 : 1;
}

// MARK: Character properties

/// UEastAsianWidth: 0 neutral, 1 ambiguous, 2 halfwidth, 3 fullwidth,
/// 4 narrow, 5 wide.
static inline int32_t pm_east_asian_width(UChar32 c) {
    return u_getIntPropertyValue(c, UCHAR_EAST_ASIAN_WIDTH);
}

/// UCharCategory (U_NON_SPACING_MARK = 6, U_ENCLOSING_MARK = 7,
/// U_CONTROL_CHAR = 15, U_FORMAT_CHAR = 16).
static inline int32_t pm_char_type(UChar32 c) { return (int32_t)u_charType(c); }

static inline int pm_is_emoji_presentation(UChar32 c) {
    return u_hasBinaryProperty(c, UCHAR_EMOJI_PRESENTATION) ? 1 : 0;
}

static inline int pm_is_default_ignorable(UChar32 c) {
    return u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT) ? 1 : 0;
}

static inline int pm_u_success(UErrorCode status) { return U_SUCCESS(status) ? 1 : 0; }

// MARK: Calendars

/// Milliseconds since 1970 (UTC midnight) of year/month/day in the locale's
/// own calendar (Buddhist under th_TH), strictly: an impossible date fails.
static inline double pm_calendar_millis(const char *locale, int32_t year, int32_t month, int32_t day,
                                        UErrorCode *status) {
    static const UChar utc[] = {'U', 'T', 'C'};
    UCalendar *calendar = ucal_open(utc, 3, locale, UCAL_DEFAULT, status);
    if (U_FAILURE(*status)) return 0;
    ucal_clear(calendar);
    ucal_setAttribute(calendar, UCAL_LENIENT, 0);
    ucal_set(calendar, UCAL_YEAR, year);
    ucal_set(calendar, UCAL_MONTH, month - 1);
    ucal_set(calendar, UCAL_DATE, day);
    double millis = ucal_getMillis(calendar, status);
    ucal_close(calendar);
    return millis;
}

/// The year of an instant in the locale's own calendar (2569 under th_TH in 2026).
static inline int32_t pm_calendar_year(const char *locale, double millis, UErrorCode *status) {
    static const UChar utc[] = {'U', 'T', 'C'};
    UCalendar *calendar = ucal_open(utc, 3, locale, UCAL_DEFAULT, status);
    if (U_FAILURE(*status)) return 0;
    ucal_setMillis(calendar, millis, status);
    int32_t year = ucal_get(calendar, UCAL_YEAR, status);
    ucal_close(calendar);
    return year;
}

// MARK: Time zones

/// 1 when ICU knows the zone `id` (an IANA name, `UTC`, `GMT+09:00`).
static inline int pm_zone_known(const UChar *id, int32_t length) {
    UChar canonical[128];
    UBool isSystem = 0;
    UErrorCode status = U_ZERO_ERROR;
    ucal_getCanonicalTimeZoneID(id, length, canonical, 128, &isSystem, &status);
    return U_SUCCESS(status) ? 1 : 0;
}

/// Milliseconds east of Greenwich in zone `id` at an instant (standard offset
/// plus daylight saving).
static inline int32_t pm_zone_offset(const UChar *id, int32_t length, double millis, UErrorCode *status) {
    UCalendar *calendar = ucal_open(id, length, "en_US_POSIX", UCAL_GREGORIAN, status);
    if (U_FAILURE(*status)) return 0;
    ucal_setMillis(calendar, millis, status);
    int32_t offset = ucal_get(calendar, UCAL_ZONE_OFFSET, status);
    offset += ucal_get(calendar, UCAL_DST_OFFSET, status);
    ucal_close(calendar);
    return offset;
}

/// The system's zone as ICU finds it (`TZ`, then /etc/localtime); its length.
static inline int32_t pm_zone_default(UChar *result, int32_t capacity, UErrorCode *status) {
    return ucal_getDefaultTimeZone(result, capacity, status);
}

// MARK: Normalization

/// `src` in NFC (`form` 0) or NFD (`form` 1); the length it needs.
static inline int32_t pm_normalize(int form, const UChar *src, int32_t length, UChar *dest, int32_t capacity,
                                   UErrorCode *status) {
    const UNormalizer2 *normalizer = form == 0 ? unorm2_getNFCInstance(status) : unorm2_getNFDInstance(status);
    if (U_FAILURE(*status)) return 0;
    return unorm2_normalize(normalizer, src, length, dest, capacity, status);
}

#endif
