import PushTallyCore

extension Queries {
    /// Raw events received in [since, until), oldest first, each with its rowid as its export sequence.
    struct SelectExportedEvents: RowQuery {
        let since: Int64
        let until: Int64

        func sql(_ dialect: SQLDialect) -> String {
            """
            SELECT rowid, \(EventColumns.names(EventColumns.exported)) FROM events WHERE received_at >= ? AND received_at < ? ORDER BY rowid
            """
        }

        var values: [QueryValue] { [.integer(since), .integer(until)] }

        func row(_ columns: some QueryRow) throws -> ExportedEvent {
            ExportedEvent(try StoredEvent(row: columns, columns: EventColumns.exported, offset: 1), seq: try columns.int64(0))
        }
    }
}
