/// The SQL of the tables both engines share, rendered for one engine: their types, their `CREATE TABLE`
/// statements, the `events` insert and the rollup upserts are written once here, and each engine only adds
/// what it alone can do (its placeholders, its multi-row or array forms, its locks and pragmas).
package enum SQLDialect: Sendable {
    case sqlite, postgres

    /// The 64-bit integer type.
    package var integer: String { self == .sqlite ? "INTEGER" : "BIGINT" }
    /// The type of a flag column (SQLite has no boolean type; it stores 0 and 1).
    package var boolean: String { self == .sqlite ? "INTEGER" : "BOOLEAN" }
    package var blob: String { self == .sqlite ? "BLOB" : "BYTEA" }
    /// What follows `CREATE TABLE (…)` for a table whose key is its storage order.
    package var withoutRowID: String { self == .sqlite ? " WITHOUT ROWID" : "" }

    /// Whether the live rollup tables carry a `shard` column, one per collector: on PostgreSQL several
    /// collectors write one database, and rows shared between them would serialise their commits on the
    /// row locks (see `PostgresRollupWriter`). The ledger, written only by pruning, is never sharded.
    package func shards(_ target: RollupTarget) -> Bool { self == .postgres && target == .rollups }

    /// How an upsert's `DO UPDATE SET` names the stored row: PostgreSQL needs the table's alias (`t`, as
    /// ``RollupUpsert/head`` declares it) where a bare name would be ambiguous; SQLite reads a bare name as
    /// the stored row.
    var storedRow: String { self == .sqlite ? "" : "t." }
    var tableAlias: String { self == .sqlite ? "" : " AS t" }

    /// The smaller or greater of two values (SQLite's scalar `min`/`max`, PostgreSQL's `LEAST`/`GREATEST`).
    func least(_ a: String, _ b: String) -> String { self == .sqlite ? "min(\(a), \(b))" : "LEAST(\(a), \(b))" }
    func greatest(_ a: String, _ b: String) -> String { self == .sqlite ? "max(\(a), \(b))" : "GREATEST(\(a), \(b))" }

    /// A column's declared type.
    package func type(_ type: ColumnType) -> String {
        switch type {
        case .text: "TEXT"
        case .integer: integer
        case .boolean: boolean
        }
    }

    /// `(?, ?, …)`: one row of SQLite placeholders.
    package static func questionMarks(_ count: Int) -> String {
        "(" + Array(repeating: "?", count: count).joined(separator: ", ") + ")"
    }
}

/// The types shared columns are declared with (``SQLDialect/type(_:)`` spells them per engine).
package enum ColumnType: Sendable, Hashable {
    case text, integer, boolean
}
