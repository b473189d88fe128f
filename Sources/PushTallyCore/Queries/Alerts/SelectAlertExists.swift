extension Queries {
    /// Whether an alert with this id exists (one row).
    package struct SelectAlertExists: RowQuery {
        package let id: String

        package init(id: String) { self.id = id }

        package func sql(_ dialect: SQLDialect) -> String {
            "SELECT EXISTS (SELECT 1 FROM alerts WHERE id = ?)"
        }

        package var values: [QueryValue] { [.text(id)] }

        package func row(_ columns: some QueryRow) throws -> Bool { try columns.boolean(0) }
    }
}
