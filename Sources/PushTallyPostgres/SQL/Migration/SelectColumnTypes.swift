import PushTallyCore

extension Queries {
    /// Each column of `table` with its type's name (`bigint`, `text`, `boolean`, `bytea`, …).
    struct SelectColumnTypes: RowQuery {
        let table: String

        func sql(_ dialect: SQLDialect) -> String {
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?"
        }

        var values: [QueryValue] { [.text(table)] }

        func row(_ columns: some QueryRow) throws -> (column: String, type: String) {
            (try columns.text(0), try columns.text(1))
        }
    }
}
