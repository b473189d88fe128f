import PushTallyCore

extension Queries {
    /// Every name `apps` admitted: each row its app, its field (a ``BoundedField`` raw value) and the name.
    struct SelectAdmittedNames: RowQuery {
        let apps: [String]

        /// The condition stands once per table read, its list bound for each.
        func sql(_ dialect: SQLDialect) -> String { AdmittedNameTables.read(apps: "app = ANY(?::text[])") }

        var values: [QueryValue] { [.texts(apps), .texts(apps)] }

        func row(_ columns: some QueryRow) throws -> (app: String, field: Int, value: String) {
            (try columns.text(0), Int(try columns.int64(1)), try columns.text(2))
        }
    }
}
