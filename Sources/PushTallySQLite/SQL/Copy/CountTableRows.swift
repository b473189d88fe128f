import PushTallyCore

extension Queries {
    /// How many rows a table holds, so a copy can say how far along it is.
    struct CountTableRows: RowQuery {
        let table: String

        func sql(_ dialect: SQLDialect) -> String {
            "SELECT count(*) FROM \(table)"
        }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> Int { Int(try columns.int64(0)) }
    }
}
