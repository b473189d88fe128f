import PushTallyCore

extension Queries {
    /// Whether a table (or other relation) named `name` exists (one row).
    struct SelectRelationExists: RowQuery {
        let name: String

        func sql(_ dialect: SQLDialect) -> String { "SELECT to_regclass(?) IS NOT NULL" }

        var values: [QueryValue] { [.text(name)] }

        func row(_ columns: some QueryRow) throws -> Bool { try columns.boolean(0) }
    }
}
