#ifndef PUSHTALLY_SQLITE_SETTINGS_H
#define PUSHTALLY_SQLITE_SETTINGS_H

/// Turns off SQLite's memory statistics for the process (`SQLITE_CONFIG_MEMSTATUS`), which otherwise take a
/// process-wide mutex around every allocation SQLite makes. Takes effect only before SQLite's first use in the
/// process; returns SQLite's result code (`SQLITE_MISUSE` when called after it). `sqlite3_config` is a variadic C
/// function, which Swift cannot call.
int pushtally_sqlite_omit_memory_statistics(void);

#endif
