import PushTallyCore

extension Queries {
    /// The indexes of `table` but its primary key: each one's name and the statement that creates it.
    struct SelectSecondaryIndexes: RowQuery {
        let table: String

        func sql(_ dialect: SQLDialect) -> String {
            """
            SELECT c.relname::text, pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
            WHERE i.indrelid = '\(table)'::regclass AND NOT i.indisprimary
            """
        }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> (name: String, definition: String) {
            (try columns.text(0), try columns.text(1))
        }
    }
}
