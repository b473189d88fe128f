/// The migration that brings platforms stored before they were folded at the door (``PlatformName``) under the
/// same rule: every stored platform in ASCII lower case, and the rollup rows of one platform's spellings merged.
///
/// Merging adds up exactly: a display is a duplicate by its push, device and receipt, whatever platform it
/// named, so the spellings' rows of one push, kind and action count distinct events and their unique ones add
/// up to the platform's. Rows keyed by a platform (the version rollup's platform dimension and the per-bucket
/// platform rollup, live and ledger) are summed into their folded key; the columns that only name a platform
/// (raw events, send records) are folded in place. FCM's tables were folded from the first.
package enum PlatformCaseMigration {
    package static let sqliteIdentifier = "v21-platform-lower-case"
    package static let postgresVersion = 25
    package static let postgresName = "v25-platform-lower-case"

    package static func statements(_ dialect: SQLDialect) -> [String] {
        var statements: [String] = []
        for target in [RollupTarget.rollups, .ledger] {
            statements += merge(.version, in: target, column: "version", where: "dimension = \(VersionDimension.platform.rawValue)", dialect)
            statements += merge(.platformBucket, in: target, column: "platform", where: nil, dialect)
        }
        for table in ["events", SendPlatformSchema.table] {
            statements.append("UPDATE \(table) SET platform = \(dialect.asciiLowerCase("platform")) WHERE \(unfolded("platform", dialect))")
        }
        return statements
    }

    /// The rows whose `column` is not folded.
    private static func unfolded(_ column: String, _ dialect: SQLDialect) -> String {
        "\(column) <> \(dialect.asciiLowerCase(column))"
    }

    /// Sums the rows of `table` whose platform `column` is not folded into the rows of its folded key (made or
    /// added to), then deletes them.
    private static func merge(
        _ table: RollupTable, in target: RollupTarget, column: String, where condition: String?, _ dialect: SQLDialect
    ) -> [String] {
        let name = table.name(in: target)
        let shard = dialect.shards(target) ? ["shard"] : []
        let keys = table.key.map { $0.name == column ? dialect.asciiLowerCase(column) : $0.name }
        let values = table.values.map { value in
            switch value.merge {
            case .add: dialect.sum(value.name)
            case .least: "MIN(\(value.name))"
            case .greatest: "MAX(\(value.name))"
            }
        }
        let rows = "WHERE \(unfolded(column, dialect))" + (condition.map { " AND \($0)" } ?? "")
        let upsert = dialect.upsert(table, into: target)
        return [
            """
            \(upsert.head) SELECT \((keys + values + shard).joined(separator: ", ")) FROM \(name) \(rows) \
            GROUP BY \((keys + shard).joined(separator: ", ")) \(upsert.conflict)
            """,
            "DELETE FROM \(name) \(rows)",
        ]
    }
}

extension SQLDialect {
    /// `column` with its ASCII letters in lower case, as ``PlatformName/folded(_:)`` folds them: PostgreSQL's
    /// `lower()` folds by its database's locale unless told the `"C"` collation, which folds ASCII alone.
    package func asciiLowerCase(_ column: String) -> String {
        self == .sqlite ? "lower(\(column))" : "lower(\(column) COLLATE \"C\")"
    }
}
