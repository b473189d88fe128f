extension Queries {
    /// The raw events received in [`sinceMillis`, `untilMillis`), oldest first, each with its row id (SQLite's
    /// `rowid`, PostgreSQL's `id`) as its sequence number in the export.
    package struct SelectExportedEvents: RowQuery {
        package let sinceMillis: Int64
        package let untilMillis: Int64

        package init(sinceMillis: Int64, untilMillis: Int64) {
            self.sinceMillis = sinceMillis
            self.untilMillis = untilMillis
        }

        package func sql(_ dialect: SQLDialect) -> String {
            let id = dialect == .sqlite ? "rowid" : "id"
            return """
                SELECT \(id), \(EventColumns.names(EventColumns.exported))
                FROM events WHERE received_at >= ? AND received_at < ? ORDER BY \(id)
                """
        }

        package var values: [QueryValue] { [.integer(sinceMillis), .integer(untilMillis)] }

        package func row(_ columns: some QueryRow) throws -> ExportedEvent {
            ExportedEvent(try StoredEvent(row: columns, columns: EventColumns.exported, offset: 1), seq: try columns.int64(0))
        }
    }
}
