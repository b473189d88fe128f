import PushTallyCore

extension Queries {
    /// The days from `firstDay` through `lastDay` of which the default partition holds rows: events stored after
    /// their day's partition was detached, counted in the day's rollup rows but not retired with it.
    struct SelectStrayDays: RowQuery {
        let firstDay: Int64
        let lastDay: Int64

        func sql(_ dialect: SQLDialect) -> String {
            let dayMillis = EventPartitions.dayMillis
            return """
                SELECT DISTINCT floor(received_at::numeric / \(dayMillis))::bigint \
                FROM \(EventPartitions.defaultPartition) WHERE received_at >= \(firstDay * dayMillis) \
                AND received_at < \((lastDay + 1) * dayMillis)
                """
        }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> Int64 { try columns.int64(0) }
    }
}
