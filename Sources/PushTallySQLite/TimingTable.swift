import GRDB
import PushTallyCore

/// SQLite's statements for the time-to-display tables (``TimingColumns``: one row per push, a column per bucket).
enum TimingTable {

    /// `CREATE TABLE` for a histogram table.
    static func create(_ table: String) -> String {
        "CREATE TABLE \(table) (push_id TEXT PRIMARY KEY NOT NULL, "
            + TimingColumns.names.map { "\($0) INTEGER NOT NULL DEFAULT 0" }.joined(separator: ", ") + ") WITHOUT ROWID"
    }

    /// Adds `histogram` to the push's row in `table`, creating it: one upsert per bucket that changed (a commit
    /// usually touches one or two buckets of a push, and an upsert of all 40 columns cost ingest a third).
    static func add(_ histogram: LatencyHistogram, pushID: String, to table: String, in db: Database) throws {
        for (bucket, count) in histogram.counts.enumerated() where count != 0 {
            let column = TimingColumns.names[bucket]
            let statement = try db.cachedStatement(sql: """
                INSERT INTO \(table) (push_id, \(column)) VALUES (?, ?)
                ON CONFLICT (push_id) DO UPDATE SET \(column) = \(column) + excluded.\(column)
                """)
            try statement.execute(arguments: [pushID, count])
        }
    }

    /// Calls `body` with each push's id and its counts (`count(bucket)`) in `table`, for the pushes `scope` (a
    /// `WHERE` clause) selects.
    ///
    /// The counts are read straight from SQLite's statement (GRDB's public column fast path) into the push's
    /// histogram: a report reads 40 of them per push, and decoding each through a `Row` was a third of a
    /// campaign report's time; a histogram built per row (an array each) showed too.
    static func forEachHistogram(
        in table: String, scope: String, arguments: StatementArguments, db: Database,
        _ body: (String, (_ bucket: Int) -> Int64) -> Void
    ) throws {
        let statement = try db.cachedStatement(
            sql: "SELECT push_id, \(TimingColumns.names.joined(separator: ", ")) FROM \(table) \(scope)")
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        let sqlite = statement.sqliteStatement
        while let row = try rows.next() {
            body(row[0]) { Int64(sqliteStatement: sqlite, index: CInt($0 + 1)) }
        }
    }
}
