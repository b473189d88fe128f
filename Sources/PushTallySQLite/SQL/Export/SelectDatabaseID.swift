import PushTallyCore

extension Queries {
    /// This database's id, noted in `meta` when it was created, by which exports name their source.
    struct SelectDatabaseID: RowQuery {
        func sql(_ dialect: SQLDialect) -> String {
            "SELECT value FROM meta WHERE key = 'database_id'"
        }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> String { try columns.text(0) }
    }
}
