import PushTallyCore

extension Queries {
    /// This database's id, as exports name their source (no row before one is made).
    struct SelectDatabaseID: RowQuery {
        func sql(_ dialect: SQLDialect) -> String { "SELECT value FROM meta WHERE key = 'database_id'" }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> String { try columns.text(0) }
    }
}
