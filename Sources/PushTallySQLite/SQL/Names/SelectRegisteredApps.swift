import PushTallyCore

extension Queries {
    /// Every registered push that names an app, with its app, for a rebuild that folds all raw events.
    struct SelectRegisteredApps: RowQuery {
        func sql(_ dialect: SQLDialect) -> String {
            "SELECT push_id, app FROM pushes WHERE app IS NOT NULL AND app <> ''"
        }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> (pushID: String, app: String) {
            (try columns.text(0), try columns.text(1))
        }
    }
}
