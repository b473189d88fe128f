/// The reads of the media rollups, written once and rendered per engine by ``SQLDialect``: each row's values
/// (``MediaOutcomes/countColumns``, then the extension-time buckets) come as one column each on SQLite and as
/// one `bigint[]` on PostgreSQL, which decodes an array in one step where it would decode a column per bucket.
package enum MediaRollupQuery {
    /// Values a row carries: the counts and the extension-time buckets.
    package static let width = MediaOutcomes.countColumns.count + ExtensionTimeHistogram.count

    private static let columns = MediaOutcomes.countColumns + ExtensionTimeHistogram.columnNames

    /// Every media row (`push_id`, values) of the pushes `scope` selects; a push may have several (one per
    /// shard on PostgreSQL), which its figures add up.
    package static func pushRows(_ scope: PushScope, dialect: SQLDialect) -> RenderedQuery {
        let table = RollupTarget.rollups.media
        let (clause, values) = scope.clause(dialect, key: "\(table).push_id")
        return dialect.rendered(
            "SELECT push_id, \(dialect.integerRow(columns)) FROM \(table) \(clause)", values.map { QueryValue.text($0) })
    }

    /// The sums per named version of `dimension` (`version`, values) over the pushes `filter` selects.
    package static func versionRows(_ filter: ReportFilter, dimension: VersionDimension, dialect: SQLDialect) -> RenderedQuery {
        let scope = RollupScope(filter).requiring("b.dimension =", .integer(Int64(dimension.rawValue)))
        return dialect.rendered(
            """
            SELECT b.version, \(dialect.integerRow(columns.map { dialect.sumOrZero("b.\($0)") })) \
            FROM \(RollupTarget.rollups.mediaVersion) b \(scope.sql) GROUP BY b.version
            """,
            scope.conditions.map(\.value))
    }

    /// The sums over the pushes `filter` selects (one row of values): named versions and the rest together.
    package static func totals(_ filter: ReportFilter, dialect: SQLDialect) -> RenderedQuery {
        let scope = RollupScope(filter)
        return dialect.rendered(
            """
            SELECT \(dialect.integerRow(columns.map { dialect.sumOrZero("b.\($0)") })) \
            FROM \(RollupTarget.rollups.media) b \(scope.sql)
            """,
            scope.conditions.map(\.value))
    }
}

extension MediaOutcomes {
    /// The outcomes per version: the named ones as read, and under `""` what `total` holds beyond them (the
    /// displays that named no version have no rows of their own, as in ``VersionCount/completing(_:pushTotals:)``).
    package static func byVersion(named: [(version: String, outcomes: MediaOutcomes)], total: MediaOutcomes) -> [String: MediaOutcomes] {
        var versions: [String: MediaOutcomes] = [:]
        var known = MediaOutcomes()
        for (version, outcomes) in named {
            versions[version, default: MediaOutcomes()].add(outcomes)
            known.add(outcomes)
        }
        let rest = total.subtracting(known)
        if !rest.isEmpty { versions["", default: MediaOutcomes()].add(rest) }
        return versions
    }
}

extension SQLDialect {
    /// Integer expressions as a row's values: one column each (SQLite), or one `bigint[]` (PostgreSQL).
    package func integerRow(_ expressions: [String]) -> String {
        self == .sqlite ? expressions.joined(separator: ", ") : "ARRAY[\(expressions.joined(separator: ", "))]::bigint[]"
    }

    /// The sum of an integer column over a group, 0 over none (a total over no rows), as a 64-bit integer.
    package func sumOrZero(_ column: String) -> String {
        self == .sqlite ? "COALESCE(SUM(\(column)), 0)" : "COALESCE(SUM(\(column)), 0)::bigint"
    }
}
