/// The pieces the report reads share, spelled for each dialect.
extension SQLDialect {
    /// `sql`, written with a `?` for each value, rendered with this dialect's placeholders: the one renderer
    /// of every report read (``StoreQuery/statement(_:)`` renders the management queries through it too).
    func rendered(_ sql: String, _ values: [QueryValue]) -> RenderedQuery {
        RenderedQuery(sql: placeholders(sql), values: values)
    }

    /// A column's sum as a 64-bit integer (PostgreSQL sums `BIGINT` into `NUMERIC` unless cast back).
    func sum(_ column: String) -> String { self == .sqlite ? "SUM(\(column))" : "SUM(\(column))::bigint" }

    /// A histogram's bucket columns as one read renders them: SQLite's are read in place, column by column,
    /// with no allocation per row; PostgreSQL's come as one `ARRAY`, one value to decode instead of one per bucket.
    func histogram(_ columns: [String]) -> String {
        self == .sqlite ? columns.joined(separator: ", ") : "ARRAY[\(columns.joined(separator: ", "))]"
    }

    /// Whether the per-push reads sum a key's rows in SQL. PostgreSQL's rows are per collector (``shards(_:)``)
    /// and each row crosses the wire; SQLite's `SUM … GROUP BY` cost more than its plain scan, and the sinks
    /// add a key's rows up themselves.
    var sumsPushRows: Bool { self == .postgres }

    /// `select` over the rows `scope` selects (and `condition`, if any), grouped by `groupBy` when ``sumsPushRows``
    /// or when `alwaysGrouped` (an aggregate both engines take in SQL).
    /// `key` names the table's `push_id` where a join makes the bare name ambiguous to a scope that needs it.
    func pushRows(
        _ select: String, _ scope: PushScope, key: String, where condition: String? = nil, groupBy: String? = nil,
        alwaysGrouped: Bool = false
    ) -> RenderedQuery {
        var (clause, values) = scope.clause(self, key: key)
        if let condition { clause += clause.isEmpty ? "WHERE \(condition)" : " AND \(condition)" }
        let grouping = sumsPushRows || alwaysGrouped ? groupBy.map { " GROUP BY \($0)" } ?? "" : ""
        return rendered("\(select) \(clause)\(grouping)", values.map { QueryValue.text($0) })
    }

    /// `select` over a rollup table aliased `b`, narrowed by `scope` and grouped by `groupBy`.
    func rollupRows(_ select: String, _ scope: RollupScope, groupBy: String) -> RenderedQuery {
        rendered("\(select) \(scope.sql) GROUP BY \(groupBy)", scope.conditions.map(\.value))
    }
}
