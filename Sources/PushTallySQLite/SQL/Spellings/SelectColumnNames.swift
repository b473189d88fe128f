import PushTallyCore

extension Queries {
    /// The names of a table's columns as the database holds them now (none for a table it lacks).
    struct SelectColumnNames: RowQuery {
        let table: String

        func sql(_ dialect: SQLDialect) -> String {
            "SELECT name FROM pragma_table_info(?)"
        }

        var values: [QueryValue] { [.text(table)] }

        func row(_ columns: some QueryRow) throws -> String { try columns.text(0) }
    }
}
