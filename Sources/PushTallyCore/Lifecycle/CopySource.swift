/// Moving a deployment from one engine to another (`migrate-store`): the source is read as tables of plain
/// values, page by page in key order, from one consistent snapshot.

/// A stored value, as `migrate-store` carries it from one engine to another.
package enum CopyValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A table as `migrate-store` reads it: its columns, and the key it is read in order of.
package struct CopyTable: Sendable {
    package var name: String
    /// Columns in the target's names: raw events' `rowid` comes out as `id`.
    package var columns: [String]
    /// How many leading columns are the key pages are read by.
    package var keyCount: Int
    package var rowCount: Int

    package init(name: String, columns: [String], keyCount: Int, rowCount: Int) {
        self.name = name
        self.columns = columns
        self.keyCount = keyCount
        self.rowCount = rowCount
    }
}

/// A consistent view of a database to copy from.
package protocol CopySource: Sendable {
    /// Describes `table` for copying; `nil` when this database has no such table.
    func copyTable(_ table: String) async throws -> CopyTable?
    /// Up to `limit` rows of `table` after the key `after` (`nil`: from the start), in key order.
    func copyPage(_ table: CopyTable, after: [CopyValue]?, limit: Int) async throws -> [[CopyValue]]
}

/// A store `migrate-store` can copy from.
package protocol CopyableStore: PushTallyStore {
    /// A consistent view of the database as it is now.
    func copySource() throws -> any CopySource
}
