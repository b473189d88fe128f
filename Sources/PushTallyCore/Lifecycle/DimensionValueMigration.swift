/// The migration that bounds platforms and app and OS versions per app (``BoundedField``): it makes their
/// admitted set, `dimension_values`, and admits every name the rollups already key a row by, so what was counted
/// under its own name before stays so, now and after a rebuild (rebuilds fold by the admitted set). Names of
/// the push's registered app, as ingest admits them; the standard platforms and `other` take no slot.
package enum DimensionValueMigration {
    package static let sqliteIdentifier = "v22-dimension-values"
    package static let postgresVersion = 26
    package static let postgresName = "v26-dimension-values"

    package static func statements(_ dialect: SQLDialect) -> [String] {
        let free = ([ActionIDs.overflow] + BoundedField.standardPlatforms.sorted()).map { "'\($0)'" }.joined(separator: ", ")
        let named = [RollupTable.version, .mediaVersion].flatMap { table in
            [RollupTarget.rollups, .ledger].map { target in
                """
                SELECT COALESCE(p.app, ''), v.dimension, v.version FROM \(table.name(in: target)) v
                LEFT JOIN pushes p ON p.push_id = v.push_id WHERE v.version <> '\(ActionIDs.overflow)' \
                AND NOT (v.dimension = \(BoundedField.platform.rawValue) AND v.version IN (\(free)))
                """
            }
        }
        // UNION, not UNION ALL: one statement of distinct rows, so no row can conflict with another.
        return [
            AdmittedNameTables.createDimensionValues,
            "INSERT INTO dimension_values (app, dimension, value) " + named.joined(separator: " UNION "),
        ]
    }
}
