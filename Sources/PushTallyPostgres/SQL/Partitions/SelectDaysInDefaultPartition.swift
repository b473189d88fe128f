import PushTallyCore

extension Queries {
    /// The days (since 1970) of the default partition's rows received in [`fromMillis`, `untilMillis`), in order.
    struct SelectDaysInDefaultPartition: RowQuery {
        let fromMillis: Int64
        let untilMillis: Int64

        func sql(_ dialect: SQLDialect) -> String {
            """
            SELECT DISTINCT floor(received_at / 86400000.0)::bigint FROM \(EventPartitions.defaultPartition)
            WHERE received_at >= ? AND received_at < ? ORDER BY 1
            """
        }

        var values: [QueryValue] { [.integer(fromMillis), .integer(untilMillis)] }

        func row(_ columns: some QueryRow) throws -> Int64 { try columns.int64(0) }
    }
}
