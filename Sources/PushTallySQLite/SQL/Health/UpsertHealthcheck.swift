import PushTallyCore

extension Queries {
    /// Records a health check's write: the one row of `healthcheck`, stamped with when it was written.
    struct UpsertHealthcheck: StoreQuery {
        let checkedAt: Int64

        func sql(_ dialect: SQLDialect) -> String {
            """
            INSERT INTO healthcheck (id, checked_at) VALUES (1, ?)
            ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at
            """
        }

        var values: [QueryValue] { [.integer(checkedAt)] }
    }
}
