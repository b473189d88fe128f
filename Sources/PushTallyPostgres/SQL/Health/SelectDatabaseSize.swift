import PushTallyCore

extension Queries {
    /// The size on disk of the connected database, in bytes (one row).
    struct SelectDatabaseSize: RowQuery {
        func sql(_ dialect: SQLDialect) -> String { "SELECT pg_database_size(current_database())" }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> Int64 { try columns.int64(0) }
    }
}
