import Foundation
import GRDB
import Testing

@testable import PushTallySQLite

/// The group commit's own transaction commits what its body wrote, and leaves nothing behind when the body or
/// SQLite fails: no row, no open transaction, and the next commit goes through.
@Suite struct WriterTransactionTests {
    private struct Refused: Error {}

    /// A WAL database pool on a file, as the store opens one, with a table of unique ids.
    private func database() throws -> (DatabasePool, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("writer-transaction-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let pool = try DatabasePool(path: folder.appendingPathComponent("db.sqlite").path)
        try pool.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        return (pool, folder)
    }

    private func insert(_ id: Int, in db: Database) throws {
        let statement = try BoundStatement(db, sql: "INSERT INTO t (id) VALUES (?)")
        statement.bind(1, id)
        try statement.execute()
    }

    @Test func commitsWhatTheBodyWroteAndReturnsItsValue() throws {
        let (pool, folder) = try database()
        defer { try? FileManager.default.removeItem(at: folder) }
        let value = try pool.writeWithoutTransaction { db in
            try WriterTransaction.run(in: db) {
                #expect(db.isInsideTransaction)
                try insert(1, in: db)
                try insert(2, in: db)
                return "done"
            }
        }
        #expect(value == "done")
        // Another connection sees both rows: the transaction committed.
        #expect(try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
        try pool.writeWithoutTransaction { db in #expect(!db.isInsideTransaction) }
    }

    @Test func aBodyThatThrowsRollsBackAndTheNextCommitGoesThrough() throws {
        let (pool, folder) = try database()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: Refused.self) {
            try pool.writeWithoutTransaction { db in
                try WriterTransaction.run(in: db) {
                    try insert(1, in: db)
                    throw Refused()
                }
            }
        }
        try pool.writeWithoutTransaction { db in
            #expect(!db.isInsideTransaction)
            try WriterTransaction.run(in: db) { try insert(2, in: db) }
        }
        #expect(try pool.read { db in try Int.fetchAll(db, sql: "SELECT id FROM t ORDER BY id") } == [2])
    }

    @Test func aFailedStatementRollsBackWithSQLitesError() throws {
        let (pool, folder) = try database()
        defer { try? FileManager.default.removeItem(at: folder) }
        try pool.writeWithoutTransaction { db in
            #expect {
                try WriterTransaction.run(in: db) {
                    try insert(1, in: db)
                    try insert(1, in: db)
                }
            } throws: { error in
                (error as? DatabaseError)?.resultCode == .SQLITE_CONSTRAINT
            }
            #expect(!db.isInsideTransaction)
        }
        #expect(try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    @Test func aWriteLockHeldElsewhereIsSQLitesBusyAndNothingIsLeftOpen() throws {
        let (pool, folder) = try database()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Another connection (as a `sqlite3` shell or a backup would be) holds the write lock.
        var configuration = Configuration()
        configuration.busyMode = .immediateError
        let other = try DatabaseQueue(path: folder.appendingPathComponent("db.sqlite").path, configuration: configuration)
        try other.writeWithoutTransaction { holder in
            try holder.execute(sql: "BEGIN IMMEDIATE")
            try holder.execute(sql: "INSERT INTO t (id) VALUES (9)")
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA busy_timeout = 0")
                #expect {
                    try WriterTransaction.run(in: db) { try insert(1, in: db) }
                } throws: { error in
                    (error as? DatabaseError)?.resultCode.primaryResultCode == .SQLITE_BUSY
                }
                #expect(!db.isInsideTransaction)
            }
            try holder.execute(sql: "ROLLBACK")
        }
        try pool.writeWithoutTransaction { db in try WriterTransaction.run(in: db) { try insert(1, in: db) } }
        #expect(try pool.read { db in try Int.fetchAll(db, sql: "SELECT id FROM t") } == [1])
    }
}
