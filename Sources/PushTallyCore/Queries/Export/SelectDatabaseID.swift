extension Queries {
    /// This database's id, noted in `meta` when it was created, by which exports name their source.
    package struct SelectDatabaseID: RowQuery {
        package init() {}

        package func sql(_ dialect: SQLDialect) -> String { "SELECT value FROM meta WHERE key = 'database_id'" }

        package var values: [QueryValue] { [] }

        package func row(_ columns: some QueryRow) throws -> String { try columns.text(0) }
    }
}
