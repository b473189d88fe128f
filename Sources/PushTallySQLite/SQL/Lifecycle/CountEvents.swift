import PushTallyCore

extension Queries {
    /// How many raw events are stored (not pruned).
    struct CountEvents: RowQuery {
        func sql(_ dialect: SQLDialect) -> String {
            "SELECT count(*) FROM events"
        }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> Int { Int(try columns.int64(0)) }
    }
}
