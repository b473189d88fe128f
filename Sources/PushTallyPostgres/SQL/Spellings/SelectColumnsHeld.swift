import PushTallyCore

extension Queries {
    /// Every column of the schema's tables, as `table.column`.
    struct SelectColumnsHeld: RowQuery {
        func sql(_ dialect: SQLDialect) -> String {
            "SELECT table_name || '.' || column_name FROM information_schema.columns WHERE table_schema = current_schema()"
        }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> String { try columns.text(0) }
    }
}
