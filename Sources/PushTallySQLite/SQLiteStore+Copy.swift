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
            let info = try Row.fetchAll(db, sql: "SELECT name, pk FROM pragma_table_info(?)", arguments: [table])
            let key = info.filter { ($0["pk"] as Int) > 0 }.sorted { ($0["pk"] as Int) < ($1["pk"] as Int) }.map { $0["name"] as String }
            let rest = info.map { $0["name"] as String }.filter { !key.contains($0) }
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0
            // Raw events have no declared key: their rowid is one, and the export sequence.
            let keyColumns = key.isEmpty ? ["id"] : key
            return CopyTable(name: table, columns: keyColumns + rest, keyCount: keyColumns.count, rowCount: count)
        }
    }

    /// Up to `limit` rows of `table` after the key `after` (`nil`: from the start), in key order.
    package func copyPage(_ table: CopyTable, after: [CopyValue]?, limit: Int) async throws -> [[CopyValue]] {
        try await snapshot.read { db in
            let selected = table.columns.map { $0 == "id" && table.name == "events" ? "rowid AS id" : $0 }
            let keys = table.columns.prefix(table.keyCount).map { $0 == "id" && table.name == "events" ? "rowid" : $0 }
            var sql = "SELECT \(selected.joined(separator: ", ")) FROM \(table.name)"
            var arguments: [DatabaseValue] = []
            if let after {
                sql += " WHERE (\(keys.joined(separator: ", "))) > (\(keys.map { _ in "?" }.joined(separator: ", ")))"
                arguments = after.map(\.databaseValue)
            }
            sql += " ORDER BY \(keys.joined(separator: ", ")) LIMIT \(limit)"
            return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { row in
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

    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let integer): integer.databaseValue
        case .real(let double): double.databaseValue
        case .text(let string): string.databaseValue
        case .blob(let bytes): Data(bytes).databaseValue
        }
    }
}
