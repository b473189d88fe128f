import PushTallyCore

extension Queries {
    /// How many raw events, pushes, tokens and live push rollup rows the database holds together: 0 for one that
    /// a copy may go into (one row).
    struct SelectStoredRowCount: RowQuery {
        func sql(_ dialect: SQLDialect) -> String {
            "SELECT (SELECT count(*) FROM events) + (SELECT count(*) FROM pushes) + (SELECT count(*) FROM tokens) + (SELECT count(*) FROM rollup_push)"
        }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> Int64 { try columns.int64(0) }
    }
}
