import GRDB

/// The group commit's transaction, begun and committed by statements prepared once per connection.
///
/// GRDB's `write` runs `BEGIN` and `COMMIT` through `execute(sql:)`, which parses and prepares each one anew: on
/// the writer thread that was 2 to 3 % of its samples under single receipts, once per commit. This does what
/// `inTransaction` does for a commit (an immediate transaction, a rollback on any error), with the two
/// statements from the connection's cache. No transaction observer watches this database, so GRDB has nothing
/// to tell of the commit.
enum WriterTransaction {
    /// Runs `body` in an immediate transaction and commits it; on an error from either, rolls back what SQLite
    /// did not already roll back and rethrows the first error.
    static func run<T>(in db: Database, _ body: () throws -> T) throws -> T {
        try BoundStatement(db, sql: "BEGIN IMMEDIATE TRANSACTION").execute()
        do {
            let value = try body()
            try BoundStatement(db, sql: "COMMIT TRANSACTION").execute()
            return value
        } catch {
            // A failed statement may have rolled the transaction back already (a full disk, an I/O error);
            // GRDB's rollback runs only while one is open.
            try? db.rollback()
            throw error
        }
    }
}
