import PushTallyCore

extension Queries {
    /// Attaches the table `name` to `events` as `day`'s partition. It takes only a `SHARE UPDATE EXCLUSIVE` lock on
    /// `events`, so ingest goes on meanwhile.
    struct AttachDayPartition: StoreQuery {
        let name: String
        let day: Int64

        func sql(_ dialect: SQLDialect) -> String {
            let (lower, upper) = (day * EventPartitions.dayMillis, (day + 1) * EventPartitions.dayMillis)
            return "ALTER TABLE events ATTACH PARTITION \(name) FOR VALUES FROM (\(lower)) TO (\(upper))"
        }

        var values: [QueryValue] { [] }
    }
}
