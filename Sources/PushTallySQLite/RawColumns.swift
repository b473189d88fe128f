import GRDB
import GRDBSQLite

/// The current row of a statement read through SQLite's C API, by position.
///
/// A campaign report reads a few thousand rows; GRDB's `Row` subscripts (a generic decode per value, with
/// its type checks) were a large part of its read time in the profile. Only valid while the statement
/// stands on a row, as in ``forEachRow(_:arguments:_:)``.
struct RawColumns {
    let handle: SQLiteStatement

    func int64(_ index: CInt) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    func optionalInt64(_ index: CInt) -> Int64? {
        sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, index)
    }

    /// A `TEXT NOT NULL` column (`""` if it were `NULL`, as SQLite itself reads one).
    func text(_ index: CInt) -> String {
        String(sqliteStatement: handle, index: index)
    }

    func optionalText(_ index: CInt) -> String? {
        sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : String(sqliteStatement: handle, index: index)
    }

    /// Steps `statement` with `arguments` through GRDB's cursor (its error handling and reset), calling `body`
    /// on each row.
    static func forEachRow(_ statement: Statement, arguments: StatementArguments, _ body: (RawColumns) throws -> Void) throws {
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        let columns = RawColumns(handle: statement.sqliteStatement)
        while try rows.next() != nil {
            try body(columns)
        }
    }
}
