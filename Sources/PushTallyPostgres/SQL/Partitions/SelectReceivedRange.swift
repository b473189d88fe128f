import PushTallyCore

extension Queries {
    /// The earliest and latest receive times in `table` (both `nil` when it is empty). One row.
    struct SelectReceivedRange: RowQuery {
        let table: String

        func sql(_ dialect: SQLDialect) -> String { "SELECT min(received_at), max(received_at) FROM \(table)" }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> (lowest: Int64?, highest: Int64?) {
            (try columns.optionalInt64(0), try columns.optionalInt64(1))
        }
    }
}
