#ifndef PUSHTALLY_BUILD_STAMP_H
#define PUSHTALLY_BUILD_STAMP_H

/// The version text scripts/build-release wrote into this binary (the VERSION file and the commit), or an empty
/// string in a binary it did not stamp (`swift build`, `swift test`).
const char *pushtally_build_stamp(void);

#endif
