#include <zlib.h>

// inflateInit2 is a macro, which Swift cannot call.
static inline int CZlib_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}
