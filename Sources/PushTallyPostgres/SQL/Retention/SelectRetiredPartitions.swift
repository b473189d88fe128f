import PushTallyCore

extension Queries {
    /// Every retired partition by name, with the last push id folded from it (`nil` before its first batch).
    struct SelectRetiredPartitions: RowQuery {
        func sql(_ dialect: SQLDialect) -> String { "SELECT name, folded_through FROM retired_events ORDER BY name" }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> (name: String, foldedThrough: String?) {
            (try columns.text(0), try columns.optionalText(1))
        }
    }
}
