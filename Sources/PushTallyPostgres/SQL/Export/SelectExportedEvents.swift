import PushTallyCore

extension Queries {
    /// The raw events received in [`sinceMillis`, `untilMillis`), oldest first, each with its id as its
    /// sequence number in the export.
    struct SelectExportedEvents: RowQuery {
        let sinceMillis: Int64
        let untilMillis: Int64

        func sql(_ dialect: SQLDialect) -> String {
            """
            SELECT id, \(EventColumns.names(EventColumns.exported))
            FROM events WHERE received_at >= ? AND received_at < ? ORDER BY id
            """
        }

        var values: [QueryValue] { [.integer(sinceMillis), .integer(untilMillis)] }

        func row(_ columns: some QueryRow) throws -> ExportedEvent {
            ExportedEvent(try StoredEvent(row: columns, columns: EventColumns.exported, offset: 1), seq: try columns.int64(0))
        }
    }
}
