// Loads the system's ICU at run time (see include/CICU.h).
#define _GNU_SOURCE
#include "internal.h"

#include <dirent.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const function_names[F_COUNT] = {
    "udat_open", "udat_close", "udat_format", "udat_setLenient", "udat_parse", "udat_toPattern",
    "udatpg_open", "udatpg_getBestPattern", "udatpg_close",
    "uplrules_open", "uplrules_close", "uplrules_select",
    "ucol_open", "ucol_close", "ucol_strcollUTF8", "ucol_setAttribute",
    "usearch_openFromCollator", "usearch_first", "usearch_close",
    "ucal_open", "ucal_close", "ucal_clear", "ucal_setAttribute", "ucal_set", "ucal_getMillis", "ucal_setMillis",
    "ucal_get", "ucal_getCanonicalTimeZoneID", "ucal_getDefaultTimeZone",
    "uspoof_open", "uspoof_getSkeleton",
    "unum_open", "unum_close", "unum_formatInt64", "unum_getSymbol",
    "u_getIntPropertyValue", "u_charType", "u_hasBinaryProperty",
    "unorm2_getNFCInstance", "unorm2_getNFDInstance", "unorm2_normalize",
    "ubrk_open", "ubrk_close", "ubrk_first", "ubrk_next",
};

void *pm_icu_functions[F_COUNT];
static int loaded_version = -1;
static char failure[256] = "not loaded yet";
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static volatile int load_state = -1;

// MARK: Loading

/// `name` in `handle`, as `name_<version>` (Debian's renamed symbols) or bare.
static void *resolve(void *handle, const char *name, int version) {
    if (version > 0) {
        char suffixed[96];
        snprintf(suffixed, sizeof suffixed, "%s_%d", name, version);
        void *found = dlsym(handle, suffixed);
        if (found) return found;
    }
    return dlsym(handle, name);
}

/// Loads the pair of libraries `libicuuc<suffix>` / `libicui18n<suffix>`
/// from `dir` (NULL: the dynamic linker's search), with symbols of
/// `version` (0: unknown, probed). 1 when every function resolved.
static int try_load(const char *dir, const char *suffix, int version) {
    char uc_path[1024], i18n_path[1024];
    const char *sep = dir ? "/" : "";
    if (!dir) dir = "";
    if ((size_t)snprintf(uc_path, sizeof uc_path, "%s%slibicuuc.so%s", dir, sep, suffix) >= sizeof uc_path) return 0;
    if ((size_t)snprintf(i18n_path, sizeof i18n_path, "%s%slibicui18n.so%s", dir, sep, suffix) >= sizeof i18n_path)
        return 0;
    // Lazy binding: only the functions pm calls are ever bound.
    void *uc = dlopen(uc_path, RTLD_LAZY | RTLD_LOCAL);
    if (!uc) {
        snprintf(failure, sizeof failure, "cannot load %s", uc_path);
        return 0;
    }
    void *i18n = dlopen(i18n_path, RTLD_LAZY | RTLD_LOCAL);
    if (!i18n) {
        snprintf(failure, sizeof failure, "cannot load %s", i18n_path);
        dlclose(uc);
        return 0;
    }
    if (version == 0) {
        // An unversioned name (libicuuc.so): find the suffix its symbols carry.
        for (int probe = 200; probe >= 40 && version == 0; probe--) {
            char name[32];
            snprintf(name, sizeof name, "u_charType_%d", probe);
            if (dlsym(uc, name)) version = probe;
        }
    }
    for (int i = 0; i < F_COUNT; i++) {
        pm_icu_functions[i] = resolve(i < F_FIRST_COMMON ? i18n : uc, function_names[i], version);
        // Optional: an ICU built without its spoof checker only says no lookalikes.
        if (!pm_icu_functions[i] && (i == F_USPOOF_OPEN || i == F_USPOOF_GET_SKELETON)) continue;
        // Optional too: without number formats, numbers keep plain digits and CSV its comma.
        if (!pm_icu_functions[i] && i >= F_UNUM_OPEN && i <= F_UNUM_GET_SYMBOL) continue;
        if (!pm_icu_functions[i]) {
            snprintf(failure, sizeof failure, "%s has no %s", i < F_FIRST_COMMON ? i18n_path : uc_path,
                     function_names[i]);
            memset(pm_icu_functions, 0, sizeof pm_icu_functions);
            dlclose(i18n);
            dlclose(uc);
            return 0;
        }
    }
    loaded_version = version;
    failure[0] = 0;
    return 1;
}

/// The major versions of `libicuuc.so.N` in `dir`, highest first, added to
/// `found` (at most `capacity`); returns the new count.
static int versions_in(const char *dir, int *found, int count, int capacity) {
    DIR *listing = opendir(dir);
    if (!listing) return count;
    static const char prefix[] = "libicuuc.so.";
    struct dirent *entry;
    while ((entry = readdir(listing)) != NULL && count < capacity) {
        if (strncmp(entry->d_name, prefix, sizeof prefix - 1) != 0) continue;
        const char *digits = entry->d_name + sizeof prefix - 1;
        char *end = NULL;
        long major = strtol(digits, &end, 10);
        if (end == digits || (*end != 0 && *end != '.') || major <= 0 || major > 10000) continue;
        int known = 0;
        for (int i = 0; i < count; i++) known |= found[i] == (int)major;
        if (!known) found[count++] = (int)major;
    }
    closedir(listing);
    return count;
}

static int load_from(const char *dir) {
    int versions[64];
    int count = versions_in(dir, versions, 0, 64);
    // Newest first.
    for (int i = 0; i < count; i++) {
        for (int j = i + 1; j < count; j++) {
            if (versions[j] > versions[i]) {
                int swap = versions[i];
                versions[i] = versions[j];
                versions[j] = swap;
            }
        }
    }
    for (int i = 0; i < count; i++) {
        char suffix[24];
        snprintf(suffix, sizeof suffix, ".%d", versions[i]);
        if (try_load(dir, suffix, versions[i])) return 1;
    }
    return 0;
}

static void find(void);

static void load(void) {
    find();
    const char *wanted = getenv("PM_ICU_VERSION");
    load_state = loaded_version >= 0 ? 1 : (wanted && strcmp(wanted, "none") == 0) ? 2 : 0;
}

static void find(void) {
    const char *only_dir = getenv("PM_ICU_LIBRARY_PATH");
    const char *wanted = getenv("PM_ICU_VERSION");
    if (only_dir && !*only_dir) only_dir = NULL;
    if (wanted && !*wanted) wanted = NULL;
    if (wanted && strcmp(wanted, "none") == 0) {
        snprintf(failure, sizeof failure, "PM_ICU_VERSION=none");
        return;
    }
    if (wanted) {
        char *end = NULL;
        long major = strtol(wanted, &end, 10);
        if (end == wanted || *end != 0 || major <= 0 || major > 10000) {
            snprintf(failure, sizeof failure, "PM_ICU_VERSION is not a version number");
            return;
        }
        char suffix[24];
        snprintf(suffix, sizeof suffix, ".%ld", major);
        try_load(only_dir, suffix, (int)major);
        return;
    }
    if (only_dir) {
        if (!load_from(only_dir) && !try_load(only_dir, "", 0)) {
            snprintf(failure, sizeof failure, "no usable ICU in PM_ICU_LIBRARY_PATH (%.180s)", only_dir);
        }
        return;
    }
    // Where the dynamic linker looks: LD_LIBRARY_PATH, then the usual folders.
    const char *paths = getenv("LD_LIBRARY_PATH");
    if (paths) {
        char copy[4096];
        snprintf(copy, sizeof copy, "%s", paths);
        char *saved = NULL;
        for (char *dir = strtok_r(copy, ":", &saved); dir; dir = strtok_r(NULL, ":", &saved)) {
            if (*dir && load_from(dir)) return;
        }
    }
    static const char *const usual[] = {
#if defined(__x86_64__)
        "/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu",
#elif defined(__aarch64__)
        "/usr/lib/aarch64-linux-gnu", "/lib/aarch64-linux-gnu",
#endif
        "/usr/lib64", "/lib64", "/usr/lib", "/lib", "/usr/local/lib",
    };
    for (size_t i = 0; i < sizeof usual / sizeof usual[0]; i++) {
        if (load_from(usual[i])) return;
    }
    // Elsewhere the linker knows of (ld.so.conf): the development name.
    if (try_load(NULL, "", 0)) return;
    snprintf(failure, sizeof failure, "no ICU library (libicuuc.so.N) found");
}

int pm_icu_available(void) {
    pthread_once(&load_once, load);
    return loaded_version >= 0;
}

int pm_icu_state(void) { return load_state; }

int pm_icu_version(void) {
    pthread_once(&load_once, load);
    return loaded_version;
}

const char *pm_icu_failure(void) {
    pthread_once(&load_once, load);
    return failure;
}

