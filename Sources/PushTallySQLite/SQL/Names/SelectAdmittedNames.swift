import PushTallyCore

extension Queries {
    /// Admitted names (``AdmittedNameTables``) as (app, field, name): of every app for a rebuild, or of one app
    /// (``oneAppSQL``) when a commit learns it.
    struct SelectAdmittedNames: RowQuery {
        /// One app's names, its app bound once as `?1` for both tables. Prepared through the connection's cache
        /// inside a commit.
        static let oneAppSQL = AdmittedNameTables.read(apps: "app = ?1")

        func sql(_ dialect: SQLDialect) -> String {
            AdmittedNameTables.read(apps: "true")
        }

        var values: [QueryValue] { [] }

        /// The field is `nil` for a field this code does not know.
        func row(_ columns: some QueryRow) throws -> (app: String, field: BoundedField?, name: String) {
            (try columns.text(0), BoundedField(rawValue: Int(try columns.int64(1))), try columns.text(2))
        }
    }
}
