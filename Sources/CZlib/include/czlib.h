// The system's zlib, for the web board's gzip answers (pm-serve only).
#include <zlib.h>

// deflateInit2 is a macro; Swift calls this instead.
static inline int czlib_deflate_init_gzip(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
