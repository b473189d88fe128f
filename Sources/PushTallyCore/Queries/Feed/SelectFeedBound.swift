extension Queries {
    /// The transaction id the feed reads below on PostgreSQL: the oldest still running anywhere on the cluster
    /// (every older one has ended). Read once per page, before the page's tables, so all of them stop at the
    /// same point. SQLite has none (its writers take turns): any text.
    package struct SelectFeedBound: RowQuery {
        package init() {}

        package func sql(_ dialect: SQLDialect) -> String {
            switch dialect {
            case .sqlite: "SELECT '0'"
            case .postgres: "SELECT pg_snapshot_xmin(pg_current_snapshot())::text"
            }
        }

        package var values: [QueryValue] { [] }

        package func row(_ columns: some QueryRow) throws -> String { try columns.text(0) }
    }
}
