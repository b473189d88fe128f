import Foundation
import GRDB
import PushTallyCore
import PushTallySQLite
import PushTallyTestSupport
import Testing

/// Takes `store`'s database back to the schema before one migration, for a test of what that migration fills:
/// drops `tables` (none for a migration of data alone) and forgets the migration (its SQLite `identifier`, its PostgreSQL `version`), then shuts the
/// store down so the next store opened on the database runs it again.
func undoMigration(
    _ store: any TestStore, kind: StoreKind, dropping tables: [String], sqlite identifier: String, postgres version: Int
) async throws {
    switch kind {
    case .postgres:
        if !tables.isEmpty { _ = try await store.textRows("DROP TABLE \(tables.joined(separator: ", "))") }
        _ = try await store.textRows("DELETE FROM pushtally_migrations WHERE version = \(version)")
        await store.shutdown()
    case .sqlite:
        let path = try #require((store as? SQLiteStore)?.path)
        await store.shutdown()
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            for table in tables { try db.execute(sql: "DROP TABLE \(table)") }
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [identifier])
        }
        try queue.close()
    }
}
