import PushTallyCore

extension Queries {
    /// Draws the unpartitioned table's next event id: one past every id stored or handed out.
    struct SelectNextUnpartitionedEventID: RowQuery {
        func sql(_ dialect: SQLDialect) -> String {
            "SELECT nextval(pg_get_serial_sequence('events_unpartitioned', 'id'))"
        }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> Int64 { try columns.int64(0) }
    }
}
