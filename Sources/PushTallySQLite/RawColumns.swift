import Foundation
import GRDB
import GRDBSQLite
import PushTallyCore

/// The current row of a statement read through SQLite's C API, by position.
///
/// A campaign report reads a row per push, kind and action; GRDB's `Row` subscripts (a generic decode per
/// value, with its type checks) would cost more than reading them. Only valid while the statement stands on a
/// row, as in ``forEachRow(_:arguments:_:)``.
struct RawColumns: ReportRow {
    let handle: SQLiteStatement

    func int64(_ column: Int) -> Int64 {
        sqlite3_column_int64(handle, CInt(column))
    }

    func optionalInt64(_ column: Int) -> Int64? {
        sqlite3_column_type(handle, CInt(column)) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, CInt(column))
    }

    /// A `TEXT NOT NULL` column (`""` if it were `NULL`, as SQLite itself reads one).
    func text(_ column: Int) -> String {
        String(sqliteStatement: handle, index: CInt(column))
    }

    func optionalText(_ column: Int) -> String? {
        sqlite3_column_type(handle, CInt(column)) == SQLITE_NULL ? nil : String(sqliteStatement: handle, index: CInt(column))
    }

    func boolean(_ column: Int) -> Bool {
        sqlite3_column_int64(handle, CInt(column)) != 0
    }

    func double(_ column: Int) -> Double {
        sqlite3_column_double(handle, CInt(column))
    }

    func optionalDouble(_ column: Int) -> Double? {
        sqlite3_column_type(handle, CInt(column)) == SQLITE_NULL ? nil : sqlite3_column_double(handle, CInt(column))
    }

    func bytes(_ column: Int) -> Data {
        let count = Int(sqlite3_column_bytes(handle, CInt(column)))
        guard let bytes = sqlite3_column_blob(handle, CInt(column)) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// The histogram's buckets are the columns from `column` on, read in place: a report reads 40 of them per
    /// push, and decoding each through a `Row` (or an array per row) would cost a campaign report more than its reads.
    func withHistogram(at column: Int, _ body: ((Int) -> Int64) throws -> Void) rethrows {
        try body { sqlite3_column_int64(handle, CInt(column + $0)) }
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

    /// Runs `statement` (cached by the connection, so a report does not compile its statements, nor GRDB's
    /// authorizer pass over each, on every read), calling `body` on each row.
    static func forEachRow(_ statement: RenderedQuery, in db: Database, _ body: (RawColumns) throws -> Void) throws {
        try forEachRow(db.cachedStatement(sql: statement.sql), arguments: arguments(statement.values), body)
    }

    /// GRDB's arguments for `values`. Its initializer from a sequence of values is generic code that GRDB does not
    /// specialize for callers (a key path made per call): the empty list, which a commit's subscription read
    /// passes every time, costs nothing, and the others go through the existential form.
    private static func arguments(_ values: [QueryValue]) -> StatementArguments {
        if values.isEmpty { return StatementArguments() }
        return StatementArguments(values.map { $0.databaseValue as (any DatabaseValueConvertible)? })
    }

    /// `transform` of each row of `statement`.
    static func map<T>(_ statement: RenderedQuery, in db: Database, _ transform: (RawColumns) throws -> T) throws -> [T] {
        var results: [T] = []
        try forEachRow(statement, in: db) { results.append(try transform($0)) }
        return results
    }
}
