#include "BuildStamp.h"

// scripts/stamp-version finds this marker in the linked binary and writes the version text after it, in place.
// The compiler and linker never see the version, so a new commit rebuilds and relinks nothing: only the release
// copy of the binary is stamped. A C array, read through a function in this file, so no optimizer can fold its
// bytes into the code that prints them.
#define PUSHTALLY_STAMP_MARKER "pushtally-build-stamp:"

__attribute__((used)) static const char stamp[256] = PUSHTALLY_STAMP_MARKER;

const char *pushtally_build_stamp(void) {
    return stamp + sizeof(PUSHTALLY_STAMP_MARKER) - 1;
}
