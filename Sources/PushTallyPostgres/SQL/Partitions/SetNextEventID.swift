import PushTallyCore

extension Queries {
    /// Makes `next` the id the partitioned `events` hands out next.
    struct SetNextEventID: StoreQuery {
        let next: Int64

        func sql(_ dialect: SQLDialect) -> String {
            "SELECT setval(pg_get_serial_sequence('events', 'id'), \(next), false)"
        }

        var values: [QueryValue] { [] }
    }
}
