import PushTallyCore

extension Queries {
    /// Moves the default partition's rows of `day` into that day's table `name`, column for column (`columns`,
    /// ``SelectColumnList``), so the table attaches: PostgreSQL refuses a partition whose rows the default holds.
    struct MoveDefaultRowsToDay: StoreQuery {
        let name: String
        let day: Int64
        let columns: String

        func sql(_ dialect: SQLDialect) -> String {
            let (lower, upper) = (day * EventPartitions.dayMillis, (day + 1) * EventPartitions.dayMillis)
            return """
                WITH moved AS (
                    DELETE FROM \(EventPartitions.defaultPartition) WHERE received_at >= \(lower) AND received_at < \(upper) RETURNING \(columns))
                INSERT INTO \(name) (\(columns)) SELECT \(columns) FROM moved
                """
        }

        var values: [QueryValue] { [] }
    }
}
