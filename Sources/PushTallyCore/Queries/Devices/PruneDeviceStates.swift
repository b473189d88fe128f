extension Queries {
    /// Deletes the states of devices nothing was sent to and nothing was heard from since `before` (retention):
    /// a device state lives as long as the raw events a recount of it would read.
    package struct PruneDeviceStates: StoreQuery {
        package let before: Int64

        package init(before: Int64) { self.before = before }

        package func sql(_ dialect: SQLDialect) -> String {
            """
            DELETE FROM device_states WHERE last_sent_at < ? AND COALESCE(first_client_at, 0) < ?
                AND COALESCE(last_display_at, 0) < ? AND COALESCE(last_open_at, 0) < ? AND COALESCE(last_session_at, 0) < ?
            """
        }

        package var values: [QueryValue] { Array(repeating: .integer(before), count: 5) }
    }
}
