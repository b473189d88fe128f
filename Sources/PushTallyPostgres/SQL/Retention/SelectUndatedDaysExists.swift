import PushTallyCore

extension Queries {
    /// Whether the migration that dates rollup rows by day was applied (one row).
    struct SelectUndatedDaysExists: RowQuery {
        func sql(_ dialect: SQLDialect) -> String { "SELECT to_regclass('undated_days') IS NOT NULL" }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> Bool { try columns.boolean(0) }
    }
}
