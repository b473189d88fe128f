import PushTallyCore

extension Queries {
    /// Moves the event id sequence past every position copied in (raw events', send records' and FCM
    /// deliveries', ``FeedTablesSchema``), so the target hands out none of theirs.
    struct SetNextEventIDPastCopied: StoreQuery {
        func sql(_ dialect: SQLDialect) -> String {
            """
            SELECT setval(pg_get_serial_sequence('events', 'id'), GREATEST(
                (SELECT max(id) FROM events), (SELECT max(id) FROM send_records), (SELECT max(id) FROM fcm_deliveries), 1))
            """
        }

        var values: [QueryValue] { [] }
    }
}
