import Foundation
import GRDB
import PostgresNIO
import PushTallyCore
@testable import PushTallyPostgres
import PushTallySQLite
import PushTallyTestSupport
import Testing

/// Every text column of both engines' fresh schemas is either a name column of a domain (``StoredNames``), which
/// the spelling migration renames, or listed with the reason it holds no name; and every listed column exists. A
/// table added without saying which of its columns hold names fails here.
@Suite struct StoredNamesCoverageTests {
    /// `table.column` of every declared name column.
    static var declared: Set<String> {
        Set(NameDomain.allCases.flatMap(StoredNames.columns).map { "\($0.table).\($0.column)" })
    }

    /// The text columns neither declared as names nor listed as holding none.
    static func unlisted(_ columns: [(table: String, column: String)]) -> [String] {
        columns.filter { !declared.contains("\($0.table).\($0.column)") && !StoredNames.isNotName(table: $0.table, column: $0.column) }
            .map { "\($0.table).\($0.column)" }.sorted()
    }

    @Test func everySQLiteTextColumnIsANameOrSaysWhyNot() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-names-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try Migrations.migrator.migrate(queue)
        let rows = try queue.read { db in
            try Row.fetchAll(
                db, sql: """
                    SELECT m.name AS t, p.name AS c, upper(p.type) AS type FROM sqlite_master m JOIN pragma_table_info(m.name) p
                    WHERE m.type = 'table'
                    """)
        }
        let all = rows.map { (table: $0["t"] as String, column: $0["c"] as String, type: $0["type"] as String) }
        let text = all.filter { $0.type == "TEXT" }.map { (table: $0.table, column: $0.column) }
        #expect(text.count > 50)
        #expect(Self.unlisted(text) == [])
        let held = Set(all.map { "\($0.table).\($0.column)" })
        #expect(Self.declared.subtracting(held).sorted() == [], "declared name columns SQLite does not have")
    }

    @Test func everyPostgresTextColumnIsANameOrSaysWhyNot() async throws {
        try await TestPostgres.withDatabase { text in
            let url = try PostgresURL(text)
            try await PostgresSchema.migrate(url, nowMillis: StoreConfiguration.systemClock(), logger: Logger(label: "pushtally.test-names"))
            var all: [(table: String, column: String, type: String)] = []
            try await TestPostgres.withConnection(to: url) { connection, logger in
                // A day partition of `events` is `events` itself: its columns are the parent's.
                let rows = try await connection.query(
                    """
                    SELECT c.table_name::text, c.column_name::text, c.data_type::text FROM information_schema.columns c
                    JOIN pg_class k ON k.relname = c.table_name AND k.relnamespace = current_schema()::regnamespace
                    WHERE c.table_schema = current_schema() AND NOT k.relispartition
                    """, logger: logger)
                for try await (table, column, type) in rows.decode((String, String, String).self) {
                    all.append((table, column, type))
                }
            }
            let text = all.filter { $0.type == "text" }.map { (table: $0.table, column: $0.column) }
            #expect(text.count > 50)
            #expect(Self.unlisted(text) == [])
            let held = Set(all.map { "\($0.table).\($0.column)" })
            #expect(Self.declared.subtracting(held).sorted() == [], "declared name columns PostgreSQL does not have")
        }
    }
}
