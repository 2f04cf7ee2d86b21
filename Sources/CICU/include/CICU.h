// ICU, loaded at run time.
//
// pm links no ICU: the first call that needs it loads the system's
// libicuuc and libicui18n with dlopen, whatever their version (.NET does the
// same), and resolves the few functions pm uses, with or without the
// version suffix Debian and most distributions add (udat_open_72). Without
// any ICU, every call fails with U_UNSUPPORTED_ERROR and pm's Swift side
// falls back to its invariant forms (ISO dates, simple plural rules).
//
// The declarations are pm's own: ICU's C types and constants are a stable
// ABI (enums are ints, handles are pointers), so no ICU header is needed to
// build pm either.
#ifndef PM_CICU_H
#define PM_CICU_H

#include <stdint.h>

typedef uint16_t PMUChar;

/// ICU's UErrorCode: zero is success, negative values are warnings.
typedef enum PMUErrorCode {
    U_USING_FALLBACK_WARNING = -128,
    U_ZERO_ERROR = 0,
    U_MISSING_RESOURCE_ERROR = 2,
    U_BUFFER_OVERFLOW_ERROR = 15,
    U_UNSUPPORTED_ERROR = 16,
} UErrorCode;

typedef struct PMDateFormat PMDateFormat;
typedef struct PMPluralRules PMPluralRules;
typedef struct PMCollator PMCollator;

// MARK: Loading

/// 1 when ICU is loaded (loading it the first time), 0 when there is none
/// usable. `PM_ICU_LIBRARY_PATH` names the only folder to look in;
/// `PM_ICU_VERSION` the major version to load (`74`), or `none`.
int pm_icu_available(void);

/// Without loading: -1 when nothing has asked for ICU yet, 0 when it was
/// looked for and not found (or `PM_ICU_VERSION=none`: then 2), 1 when loaded.
int pm_icu_state(void);

/// The major version loaded (`72`), 0 without a suffix, -1 when none.
int pm_icu_version(void);

/// Why ICU could not be loaded (a short English diagnostic for
/// `pm --version --verbose` style reports), or "" when it was.
const char *pm_icu_failure(void);

static inline int pm_u_success(UErrorCode status) { return status <= U_ZERO_ERROR ? 1 : 0; }

// MARK: Dates

/// Opens a date formatter. date_style/time_style: none = -1, short = 3,
/// medium = 2, long = 1. tz may be NULL for the default zone.
PMDateFormat *pm_udat_open(int32_t time_style, int32_t date_style, const char *locale, const PMUChar *tz,
                           int32_t tz_length, UErrorCode *status);

/// Opens a date formatter for the locale's best pattern for a skeleton
/// (`MMMd`: `Nov 20`, `20 nov.`, `11월 20일`).
PMDateFormat *pm_udat_open_skeleton(const char *locale, const PMUChar *skeleton, int32_t skeleton_length,
                                    const PMUChar *tz, int32_t tz_length, UErrorCode *status);

void pm_udat_close(PMDateFormat *format);
int32_t pm_udat_format(const PMDateFormat *format, double millis, PMUChar *result, int32_t capacity,
                       UErrorCode *status);
void pm_udat_set_lenient(PMDateFormat *format, int lenient);
/// Parses text entirely; *parsed_to receives how far parsing got.
double pm_udat_parse(const PMDateFormat *format, const PMUChar *text, int32_t length, int32_t *parsed_to,
                     UErrorCode *status);
int32_t pm_udat_to_pattern(const PMDateFormat *format, PMUChar *result, int32_t capacity, UErrorCode *status);

// MARK: Plural rules

PMPluralRules *pm_uplrules_open(const char *locale, UErrorCode *status);
void pm_uplrules_close(PMPluralRules *rules);
int32_t pm_uplrules_select(const PMPluralRules *rules, double number, PMUChar *keyword, int32_t capacity,
                           UErrorCode *status);

// MARK: Numbers (U_UNSUPPORTED_ERROR without ICU or without its number formats)

/// `value` as `locale` writes an integer (`1 234` in French, with U+202F); its length.
int32_t pm_unum_format(const char *locale, int64_t value, PMUChar *result, int32_t capacity, UErrorCode *status);
/// The decimal mark of `locale` (`,` in French, `.` in English); its length.
int32_t pm_unum_decimal_separator(const char *locale, PMUChar *result, int32_t capacity, UErrorCode *status);

// MARK: Collation

PMCollator *pm_ucol_open(const char *locale, UErrorCode *status);
void pm_ucol_close(PMCollator *collator);
/// Returns -1, 0 or 1.
int32_t pm_ucol_strcoll_utf8(const PMCollator *collator, const char *a, int32_t a_length, const char *b,
                             int32_t b_length, UErrorCode *status);
/// Compares at the primary level only: case and accents do not count.
void pm_ucol_set_primary(PMCollator *collator, UErrorCode *status);
/// Whether `pattern` occurs in `text` by the collator's rules (1 or 0), or
/// -1 when ICU refuses.
int32_t pm_usearch_contains(const PMUChar *pattern, int32_t pattern_length, const PMUChar *text,
                            int32_t text_length, PMCollator *collator);

// MARK: Character properties (-1 without ICU)

/// UEastAsianWidth: 0 neutral, 1 ambiguous, 2 halfwidth, 3 fullwidth, 4 narrow, 5 wide.
int32_t pm_east_asian_width(int32_t c);
/// The Unicode line break class of `c` (UCHAR_LINE_BREAK), or -1 without ICU.
int32_t pm_line_break_class(int32_t c);
/// Where a line may break in `text` (UTF-16 offsets after each break, the
/// last being `length`), by ICU's line break rules for `locale` (UAX #14):
/// how many there are; at most `capacity` are written to `breaks`.
int32_t pm_line_breaks(const char *locale, const PMUChar *text, int32_t length, int32_t *breaks, int32_t capacity,
                       UErrorCode *status);
/// UCharCategory (6 non-spacing mark, 7 enclosing mark, 15 control, 16 format).
int32_t pm_char_type(int32_t c);
int pm_is_emoji_presentation(int32_t c);
int pm_is_default_ignorable(int32_t c);

// MARK: Calendars

/// Milliseconds since 1970 (UTC midnight) of year/month/day in the locale's
/// own calendar (Buddhist under th_TH), strictly: an impossible date fails.
double pm_calendar_millis(const char *locale, int32_t year, int32_t month, int32_t day, UErrorCode *status);
/// The year of an instant in the locale's own calendar (2569 under th_TH in 2026).
int32_t pm_calendar_year(const char *locale, double millis, UErrorCode *status);

// MARK: Time zones

/// 1 when ICU knows the zone `id` (an IANA name, `UTC`, `GMT+09:00`).
int pm_zone_known(const PMUChar *id, int32_t length);
/// Milliseconds east of Greenwich in zone `id` at an instant (standard
/// offset plus daylight saving).
int32_t pm_zone_offset(const PMUChar *id, int32_t length, double millis, UErrorCode *status);
/// The system's zone as ICU finds it (`TZ`, then /etc/localtime); its length.
int32_t pm_zone_default(PMUChar *result, int32_t capacity, UErrorCode *status);

// MARK: Normalization

/// `src` in NFC (`form` 0) or NFD (`form` 1); the length it needs.
int32_t pm_normalize(int form, const PMUChar *src, int32_t length, PMUChar *dest, int32_t capacity,
                     UErrorCode *status);

// MARK: Arguments

/// The program's arguments as the loader passed them (arguments.c): 0 and
/// null when they were not seen.
int pm_argument_count(void);
const char *pm_argument(int index);

// MARK: Confusable names

/// The UTS #39 skeleton of `text` (UTF-16): two strings a reader could take
/// for each other have the same one (`\u0430lice` and `alice`). Returns its
/// length; U_BUFFER_OVERFLOW_ERROR when `capacity` is too small.
int32_t pm_uspoof_skeleton(const PMUChar *text, int32_t length, PMUChar *dest, int32_t capacity, UErrorCode *status);

#endif
