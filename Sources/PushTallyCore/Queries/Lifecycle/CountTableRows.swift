extension Queries {
    /// How many rows `table` holds: a copy's progress, the raw events still stored, a partition's rows.
    package struct CountTableRows: RowQuery {
        package let table: String

        package init(table: String) { self.table = table }

        package func sql(_ dialect: SQLDialect) -> String { "SELECT count(*) FROM \(table)" }

        package var values: [QueryValue] { [] }

        package func row(_ columns: some QueryRow) throws -> Int { Int(try columns.int64(0)) }
    }
}
