import PushTallyCore

extension Queries {
    /// A table's columns in declaration order, each with its place in the primary key (0 for a column outside
    /// it): what a copy reads a table by, key first.
    struct SelectCopyColumns: RowQuery {
        let table: String

        func sql(_ dialect: SQLDialect) -> String {
            "SELECT name, pk FROM pragma_table_info(?)"
        }

        var values: [QueryValue] { [.text(table)] }

        func row(_ columns: some QueryRow) throws -> (name: String, keyPosition: Int) {
            (try columns.text(0), Int(try columns.int64(1)))
        }
    }
}
