// pm's calls into ICU, through the functions the loader resolved; each
// fails with U_UNSUPPORTED_ERROR (or -1) when there is no ICU.
#include "internal.h"

#include <pthread.h>
#include <stddef.h>

// MARK: Calls

#define CALL(index, type) ((type)pm_icu_functions[index])
#define NEED_ICU(status, value)                                                                                        \
    do {                                                                                                               \
        if (!pm_icu_available()) {                                                                                     \
            *(status) = U_UNSUPPORTED_ERROR;                                                                           \
            return value;                                                                                              \
        }                                                                                                              \
    } while (0)

typedef void *(*udat_open_f)(int32_t, int32_t, const char *, const PMUChar *, int32_t, const PMUChar *, int32_t,
                             UErrorCode *);

PMDateFormat *pm_udat_open(int32_t time_style, int32_t date_style, const char *locale, const PMUChar *tz,
                           int32_t tz_length, UErrorCode *status) {
    NEED_ICU(status, NULL);
    return CALL(F_UDAT_OPEN, udat_open_f)(time_style, date_style, locale, tz, tz_length, NULL, 0, status);
}

PMDateFormat *pm_udat_open_skeleton(const char *locale, const PMUChar *skeleton, int32_t skeleton_length,
                                    const PMUChar *tz, int32_t tz_length, UErrorCode *status) {
    NEED_ICU(status, NULL);
    void *generator = CALL(F_UDATPG_OPEN, void *(*)(const char *, UErrorCode *))(locale, status);
    if (!pm_u_success(*status) || generator == NULL) return NULL;
    PMUChar pattern[96];
    int32_t length = CALL(F_UDATPG_GET_BEST_PATTERN,
                          int32_t(*)(void *, const PMUChar *, int32_t, PMUChar *, int32_t, UErrorCode *))(
        generator, skeleton, skeleton_length, pattern, 96, status);
    CALL(F_UDATPG_CLOSE, void (*)(void *))(generator);
    if (!pm_u_success(*status) || length >= 96) return NULL;
    // UDAT_PATTERN (-2) for both styles: the pattern alone decides.
    return CALL(F_UDAT_OPEN, udat_open_f)(-2, -2, locale, tz, tz_length, pattern, length, status);
}

void pm_udat_close(PMDateFormat *format) {
    if (format && pm_icu_available()) CALL(F_UDAT_CLOSE, void (*)(void *))(format);
}

int32_t pm_udat_format(const PMDateFormat *format, double millis, PMUChar *result, int32_t capacity,
                       UErrorCode *status) {
    NEED_ICU(status, 0);
    return CALL(F_UDAT_FORMAT, int32_t(*)(const void *, double, PMUChar *, int32_t, void *, UErrorCode *))(
        format, millis, result, capacity, NULL, status);
}

void pm_udat_set_lenient(PMDateFormat *format, int lenient) {
    if (pm_icu_available()) CALL(F_UDAT_SET_LENIENT, void (*)(void *, int8_t))(format, lenient ? 1 : 0);
}

double pm_udat_parse(const PMDateFormat *format, const PMUChar *text, int32_t length, int32_t *parsed_to,
                     UErrorCode *status) {
    *parsed_to = 0;
    NEED_ICU(status, 0);
    return CALL(F_UDAT_PARSE, double (*)(const void *, const PMUChar *, int32_t, int32_t *, UErrorCode *))(
        format, text, length, parsed_to, status);
}

int32_t pm_udat_to_pattern(const PMDateFormat *format, PMUChar *result, int32_t capacity, UErrorCode *status) {
    NEED_ICU(status, 0);
    return CALL(F_UDAT_TO_PATTERN, int32_t(*)(const void *, int8_t, PMUChar *, int32_t, UErrorCode *))(
        format, 0, result, capacity, status);
}

PMPluralRules *pm_uplrules_open(const char *locale, UErrorCode *status) {
    NEED_ICU(status, NULL);
    return CALL(F_UPLRULES_OPEN, PMPluralRules * (*)(const char *, UErrorCode *))(locale, status);
}

void pm_uplrules_close(PMPluralRules *rules) {
    if (rules && pm_icu_available()) CALL(F_UPLRULES_CLOSE, void (*)(PMPluralRules *))(rules);
}

int32_t pm_uplrules_select(const PMPluralRules *rules, double number, PMUChar *keyword, int32_t capacity,
                           UErrorCode *status) {
    NEED_ICU(status, 0);
    return CALL(F_UPLRULES_SELECT, int32_t(*)(const PMPluralRules *, double, PMUChar *, int32_t, UErrorCode *))(
        rules, number, keyword, capacity, status);
}

PMCollator *pm_ucol_open(const char *locale, UErrorCode *status) {
    NEED_ICU(status, NULL);
    return CALL(F_UCOL_OPEN, PMCollator * (*)(const char *, UErrorCode *))(locale, status);
}

void pm_ucol_close(PMCollator *collator) {
    if (collator && pm_icu_available()) CALL(F_UCOL_CLOSE, void (*)(PMCollator *))(collator);
}

int32_t pm_ucol_strcoll_utf8(const PMCollator *collator, const char *a, int32_t a_length, const char *b,
                             int32_t b_length, UErrorCode *status) {
    NEED_ICU(status, 0);
    return CALL(F_UCOL_STRCOLL_UTF8,
                int32_t(*)(const PMCollator *, const char *, int32_t, const char *, int32_t, UErrorCode *))(
        collator, a, a_length, b, b_length, status);
}

void pm_ucol_set_primary(PMCollator *collator, UErrorCode *status) {
    NEED_ICU(status, );
    // UCOL_STRENGTH (5) = UCOL_PRIMARY (0).
    CALL(F_UCOL_SET_ATTRIBUTE, void (*)(PMCollator *, int32_t, int32_t, UErrorCode *))(collator, 5, 0, status);
}

int32_t pm_usearch_contains(const PMUChar *pattern, int32_t pattern_length, const PMUChar *text,
                            int32_t text_length, PMCollator *collator) {
    if (!pm_icu_available()) return -1;
    UErrorCode status = U_ZERO_ERROR;
    void *search = CALL(F_USEARCH_OPEN_FROM_COLLATOR, void *(*)(const PMUChar *, int32_t, const PMUChar *, int32_t,
                                                                 const PMCollator *, void *, UErrorCode *))(
        pattern, pattern_length, text, text_length, collator, NULL, &status);
    if (!pm_u_success(status) || search == NULL) return -1;
    int32_t found = CALL(F_USEARCH_FIRST, int32_t(*)(void *, UErrorCode *))(search, &status);
    CALL(F_USEARCH_CLOSE, void (*)(void *))(search);
    if (!pm_u_success(status)) return -1;
    return found == -1 ? 0 : 1;  // USEARCH_DONE
}

int32_t pm_east_asian_width(int32_t c) {
    if (!pm_icu_available()) return -1;
    return CALL(F_U_GET_INT_PROPERTY_VALUE, int32_t(*)(int32_t, int32_t))(c, 0x1004);  // UCHAR_EAST_ASIAN_WIDTH
}

int32_t pm_line_break_class(int32_t c) {
    if (!pm_icu_available()) return -1;
    return CALL(F_U_GET_INT_PROPERTY_VALUE, int32_t(*)(int32_t, int32_t))(c, 0x1008);  // UCHAR_LINE_BREAK
}

int32_t pm_line_breaks(const char *locale, const PMUChar *text, int32_t length, int32_t *breaks, int32_t capacity,
                       UErrorCode *status) {
    NEED_ICU(status, 0);
    void *iterator = CALL(F_UBRK_OPEN, void *(*)(int32_t, const char *, const PMUChar *, int32_t, UErrorCode *))(
        2 /* UBRK_LINE */, locale, text, length, status);
    if (!pm_u_success(*status) || iterator == NULL) return 0;
    int32_t count = 0;
    CALL(F_UBRK_FIRST, int32_t(*)(void *))(iterator);
    for (int32_t next; (next = CALL(F_UBRK_NEXT, int32_t(*)(void *))(iterator)) != -1 /* UBRK_DONE */;) {
        if (count < capacity) breaks[count] = next;
        count++;
    }
    CALL(F_UBRK_CLOSE, void (*)(void *))(iterator);
    return count;
}

int32_t pm_char_type(int32_t c) {
    if (!pm_icu_available()) return -1;
    return CALL(F_U_CHAR_TYPE, int8_t(*)(int32_t))(c);
}

int pm_is_emoji_presentation(int32_t c) {
    if (!pm_icu_available()) return -1;
    return CALL(F_U_HAS_BINARY_PROPERTY, int8_t(*)(int32_t, int32_t))(c, 58) ? 1 : 0;  // UCHAR_EMOJI_PRESENTATION
}

int pm_is_default_ignorable(int32_t c) {
    if (!pm_icu_available()) return -1;
    return CALL(F_U_HAS_BINARY_PROPERTY, int8_t(*)(int32_t, int32_t))(c, 5) ? 1 : 0;  // DEFAULT_IGNORABLE_CODE_POINT
}

typedef void *(*ucal_open_f)(const PMUChar *, int32_t, const char *, int32_t, UErrorCode *);
typedef int32_t (*ucal_get_f)(const void *, int32_t, UErrorCode *);

// UCalendarDateFields: UCAL_YEAR 1, UCAL_MONTH 2, UCAL_DATE 5, UCAL_ZONE_OFFSET 15, UCAL_DST_OFFSET 16.
double pm_calendar_millis(const char *locale, int32_t year, int32_t month, int32_t day, UErrorCode *status) {
    NEED_ICU(status, 0);
    static const PMUChar utc[] = {'U', 'T', 'C'};
    void *calendar = CALL(F_UCAL_OPEN, ucal_open_f)(utc, 3, locale, 0, status);  // UCAL_DEFAULT
    if (!pm_u_success(*status) || !calendar) return 0;
    CALL(F_UCAL_CLEAR, void (*)(void *))(calendar);
    CALL(F_UCAL_SET_ATTRIBUTE, void (*)(void *, int32_t, int32_t))(calendar, 0, 0);  // UCAL_LENIENT off
    void (*set)(void *, int32_t, int32_t) = CALL(F_UCAL_SET, void (*)(void *, int32_t, int32_t));
    set(calendar, 1, year);
    set(calendar, 2, month - 1);
    set(calendar, 5, day);
    double millis = CALL(F_UCAL_GET_MILLIS, double (*)(const void *, UErrorCode *))(calendar, status);
    CALL(F_UCAL_CLOSE, void (*)(void *))(calendar);
    return millis;
}

int32_t pm_calendar_year(const char *locale, double millis, UErrorCode *status) {
    NEED_ICU(status, 0);
    static const PMUChar utc[] = {'U', 'T', 'C'};
    void *calendar = CALL(F_UCAL_OPEN, ucal_open_f)(utc, 3, locale, 0, status);
    if (!pm_u_success(*status) || !calendar) return 0;
    CALL(F_UCAL_SET_MILLIS, void (*)(void *, double, UErrorCode *))(calendar, millis, status);
    int32_t year = CALL(F_UCAL_GET, ucal_get_f)(calendar, 1, status);
    CALL(F_UCAL_CLOSE, void (*)(void *))(calendar);
    return year;
}

int pm_zone_known(const PMUChar *id, int32_t length) {
    if (!pm_icu_available()) return 0;
    PMUChar canonical[128];
    int8_t is_system = 0;
    UErrorCode status = U_ZERO_ERROR;
    CALL(F_UCAL_GET_CANONICAL_TIME_ZONE_ID, int32_t(*)(const PMUChar *, int32_t, PMUChar *, int32_t, int8_t *,
                                                         UErrorCode *))(id, length, canonical, 128, &is_system, &status);
    return pm_u_success(status) ? 1 : 0;
}

int32_t pm_zone_offset(const PMUChar *id, int32_t length, double millis, UErrorCode *status) {
    NEED_ICU(status, 0);
    void *calendar = CALL(F_UCAL_OPEN, ucal_open_f)(id, length, "en_US_POSIX", 1, status);  // UCAL_GREGORIAN
    if (!pm_u_success(*status) || !calendar) return 0;
    CALL(F_UCAL_SET_MILLIS, void (*)(void *, double, UErrorCode *))(calendar, millis, status);
    int32_t offset = CALL(F_UCAL_GET, ucal_get_f)(calendar, 15, status);
    offset += CALL(F_UCAL_GET, ucal_get_f)(calendar, 16, status);
    CALL(F_UCAL_CLOSE, void (*)(void *))(calendar);
    return offset;
}

int32_t pm_zone_default(PMUChar *result, int32_t capacity, UErrorCode *status) {
    NEED_ICU(status, 0);
    return CALL(F_UCAL_GET_DEFAULT_TIME_ZONE, int32_t(*)(PMUChar *, int32_t, UErrorCode *))(result, capacity, status);
}

int32_t pm_normalize(int form, const PMUChar *src, int32_t length, PMUChar *dest, int32_t capacity,
                     UErrorCode *status) {
    NEED_ICU(status, 0);
    const void *normalizer = CALL(form == 0 ? F_UNORM2_GET_NFC_INSTANCE : F_UNORM2_GET_NFD_INSTANCE,
                                  const void *(*)(UErrorCode *))(status);
    if (!pm_u_success(*status) || !normalizer) return 0;
    return CALL(F_UNORM2_NORMALIZE, int32_t(*)(const void *, const PMUChar *, int32_t, PMUChar *, int32_t,
                                                UErrorCode *))(normalizer, src, length, dest, capacity, status);
}

// MARK: Confusable names

typedef struct PMSpoofChecker PMSpoofChecker;
static PMSpoofChecker *spoof_checker;
static UErrorCode spoof_status = U_ZERO_ERROR;
static pthread_once_t spoof_once = PTHREAD_ONCE_INIT;

static void open_spoof_checker(void) {
    if (!pm_icu_functions[F_USPOOF_OPEN] || !pm_icu_functions[F_USPOOF_GET_SKELETON]) return;
    spoof_checker = CALL(F_USPOOF_OPEN, PMSpoofChecker * (*)(UErrorCode *))(&spoof_status);
}

int32_t pm_uspoof_skeleton(const PMUChar *text, int32_t length, PMUChar *dest, int32_t capacity, UErrorCode *status) {
    NEED_ICU(status, 0);
    pthread_once(&spoof_once, open_spoof_checker);
    if (!spoof_checker || !pm_u_success(spoof_status)) {
        *status = U_UNSUPPORTED_ERROR;
        return 0;
    }
    // Type 0: the single-script, lowercase-insensitive table is gone since ICU 58; 0 is the one table.
    return CALL(F_USPOOF_GET_SKELETON,
                int32_t(*)(const PMSpoofChecker *, uint32_t, const PMUChar *, int32_t, PMUChar *, int32_t, UErrorCode *))(
        spoof_checker, 0, text, length, dest, capacity, status);
}

// MARK: Numbers

typedef void *(*unum_open_f)(int32_t, const PMUChar *, int32_t, const char *, void *, UErrorCode *);

/// A decimal number format of `locale`, or NULL (no ICU, or one without number formats).
static void *number_format(const char *locale, UErrorCode *status) {
    NEED_ICU(status, NULL);
    if (!pm_icu_functions[F_UNUM_OPEN] || !pm_icu_functions[F_UNUM_CLOSE] || !pm_icu_functions[F_UNUM_FORMAT_INT64] ||
        !pm_icu_functions[F_UNUM_GET_SYMBOL]) {
        *status = U_UNSUPPORTED_ERROR;
        return NULL;
    }
    // UNUM_DECIMAL (1), no pattern.
    return CALL(F_UNUM_OPEN, unum_open_f)(1, NULL, 0, locale, NULL, status);
}

int32_t pm_unum_format(const char *locale, int64_t value, PMUChar *result, int32_t capacity, UErrorCode *status) {
    void *format = number_format(locale, status);
    if (!format || !pm_u_success(*status)) return 0;
    int32_t length = CALL(F_UNUM_FORMAT_INT64, int32_t(*)(const void *, int64_t, PMUChar *, int32_t, void *, UErrorCode *))(
        format, value, result, capacity, NULL, status);
    CALL(F_UNUM_CLOSE, void (*)(void *))(format);
    return length;
}

int32_t pm_unum_decimal_separator(const char *locale, PMUChar *result, int32_t capacity, UErrorCode *status) {
    void *format = number_format(locale, status);
    if (!format || !pm_u_success(*status)) return 0;
    // UNUM_DECIMAL_SEPARATOR_SYMBOL (0).
    int32_t length = CALL(F_UNUM_GET_SYMBOL, int32_t(*)(const void *, int32_t, PMUChar *, int32_t, UErrorCode *))(
        format, 0, result, capacity, status);
    CALL(F_UNUM_CLOSE, void (*)(void *))(format);
    return length;
}
