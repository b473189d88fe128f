import GRDB
import GRDBSQLite

/// A cached statement bound and stepped through SQLite's C API, for the writer's per-event statements.
///
/// GRDB's `execute(arguments:)` (an array of boxed values, then its checks around each step) costs about as
/// much as SQLite's own work for a row, and so does its generic row decoding. These statements only insert,
/// upsert, update or read inside the caller's transaction (no observers watch this database), so nothing GRDB
/// tracks is skipped. Arguments are bound by position from 1; every one must be bound before each run.
struct BoundStatement {
    private let statement: Statement
    private let connection: SQLiteConnection

    init(_ db: Database, sql: String) throws {
        statement = try db.cachedStatement(sql: sql)
        connection = db.sqliteConnection!
    }

    private var handle: SQLiteStatement { statement.sqliteStatement }

    func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(handle, index, value)
    }

    func bind(_ index: Int32, _ value: Int) {
        sqlite3_bind_int64(handle, index, Int64(value))
    }

    func bind(_ index: Int32, _ value: Bool) {
        sqlite3_bind_int64(handle, index, value ? 1 : 0)
    }

    func bind(_ index: Int32, _ value: String) {
        var value = value
        // SQLite copies the bytes (transient); an empty string still needs a pointer, or it would bind NULL.
        value.withUTF8 { bytes in
            if let base = bytes.baseAddress {
                _ = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text(handle, index, $0, Int32(bytes.count), transient)
                }
            } else {
                sqlite3_bind_text(handle, index, "", 0, transient)
            }
        }
    }

    func bind(_ index: Int32, _ value: String?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(handle, index) }
    }

    func bind(_ index: Int32, _ value: Int64?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(handle, index) }
    }

    /// Runs the statement to completion and resets it.
    func execute() throws {
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE || code == SQLITE_ROW else { throw failure(code) }
        sqlite3_reset(handle)
    }

    /// Rows the last ``execute()`` of this connection inserted, updated or deleted.
    var changes: Int32 { sqlite3_changes(connection) }

    /// The first column of the first row as an integer (`nil` for no row or `NULL`), then resets.
    func fetchInt64() throws -> Int64? {
        let code = sqlite3_step(handle)
        defer { sqlite3_reset(handle) }
        switch code {
        case SQLITE_ROW:
            return sqlite3_column_type(handle, 0) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, 0)
        case SQLITE_DONE:
            return nil
        default:
            throw failure(code)
        }
    }

    /// Every row, each made by `make` from the current row's ``Columns``, then resets.
    func fetchAll<Value>(_ make: (Columns) -> Value) throws -> [Value] {
        let columns = Columns(handle: handle)
        var values: [Value] = []
        try forEachRow { values.append(make(columns)) }
        return values
    }

    /// Every row, each made by `make` from the current row as a query decodes it (``RawColumns``), then resets.
    func fetchRows<Value>(_ make: (RawColumns) throws -> Value) throws -> [Value] {
        let columns = RawColumns(handle: handle)
        var values: [Value] = []
        try forEachRow { values.append(try make(columns)) }
        return values
    }

    /// Steps the statement to its end, calling `body` on each row, then resets.
    private func forEachRow(_ body: () throws -> Void) throws {
        defer { sqlite3_reset(handle) }
        while true {
            let code = sqlite3_step(handle)
            guard code == SQLITE_ROW else {
                guard code == SQLITE_DONE else { throw failure(code) }
                return
            }
            try body()
        }
    }

    /// The current row of a statement being stepped, read by column position from 0.
    struct Columns {
        fileprivate let handle: SQLiteStatement

        func int64(_ index: Int32) -> Int64 {
            sqlite3_column_int64(handle, index)
        }

        func optionalInt64(_ index: Int32) -> Int64? {
            sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, index)
        }

        /// The column as text (`NULL` reads as the empty string).
        func text(_ index: Int32) -> String {
            optionalText(index) ?? ""
        }

        func optionalText(_ index: Int32) -> String? {
            guard let bytes = sqlite3_column_text(handle, index) else { return nil }
            let count = Int(sqlite3_column_bytes(handle, index))
            return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }
    }

    private func failure(_ code: Int32) -> DatabaseError {
        let message = String(cString: sqlite3_errmsg(connection))
        sqlite3_reset(handle)
        return DatabaseError(
            resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)), message: message, sql: statement.sql)
    }
}

/// SQLite's `SQLITE_TRANSIENT`: copy the bound bytes now (the C macro does not import into Swift).
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
