import PushTallyCore

extension Queries {
    /// Moves the event id sequence past every id copied in, so ingest hands out none of theirs.
    struct SetNextEventIDPastCopied: StoreQuery {
        func sql(_ dialect: SQLDialect) -> String {
            "SELECT setval(pg_get_serial_sequence('events', 'id'), GREATEST((SELECT max(id) FROM events), 1))"
        }

        var values: [QueryValue] { [] }
    }
}
