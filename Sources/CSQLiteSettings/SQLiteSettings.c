#include "SQLiteSettings.h"
#include <sqlite3.h>

int pushtally_sqlite_omit_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
