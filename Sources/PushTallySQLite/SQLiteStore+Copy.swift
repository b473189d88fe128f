import Foundation
import GRDB
import PushTallyCore

/// One consistent view of a SQLite database for copying, page by page, however long the copy takes: a read
/// transaction held open (WAL lets the collector go on writing meanwhile; what it writes is not in the view).
final class SQLiteCopySource: CopySource {
    private let snapshot: DatabaseSnapshot

    init(_ snapshot: DatabaseSnapshot) {
        self.snapshot = snapshot
    }

    /// Describes `table` for copying; `nil` when this database has no such table.
    package func copyTable(_ table: String) async throws -> CopyTable? {
        try await snapshot.read { db in
            guard try db.tableExists(table) else { return nil }
            let info = try db.fetch(Queries.SelectCopyColumns(table: table))
            let key = info.filter { $0.keyPosition > 0 }.sorted { $0.keyPosition < $1.keyPosition }.map { $0.name }
            let rest = info.map { $0.name }.filter { !key.contains($0) }
            let count = try db.fetch(Queries.CountTableRows(table: table)).first ?? 0
            // Raw events have no declared key: their rowid is one, and the export sequence.
            let keyColumns = key.isEmpty ? ["id"] : key
            return CopyTable(name: table, columns: keyColumns + rest, keyCount: keyColumns.count, rowCount: count)
        }
    }

    /// Up to `limit` rows of `table` after the key `after` (`nil`: from the start), in key order.
    package func copyPage(_ table: CopyTable, after: [CopyValue]?, limit: Int) async throws -> [[CopyValue]] {
        try await snapshot.read { db in
            let page = Queries.SelectCopyPage(table: table, after: after, limit: limit).statement(.sqlite)
            return try Row.fetchAll(db, sql: page.sql, arguments: StatementArguments(page.values.map(\.databaseValue))).map { row in
                row.databaseValues.map(CopyValue.init)
            }
        }
    }
}

extension SQLiteStore: CopyableStore {
    /// A consistent view of the database as it is now, for `migrate-store`.
    package func copySource() throws -> any CopySource {
        SQLiteCopySource(try pool.makeSnapshot())
    }
}

extension CopyValue {
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let integer): self = .integer(integer)
        case .double(let double): self = .real(double)
        case .string(let string): self = .text(string)
        case .blob(let data): self = .blob(Array(data))
        }
    }
}
