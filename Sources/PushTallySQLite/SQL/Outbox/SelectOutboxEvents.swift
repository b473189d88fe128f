import PushTallyCore

extension Queries {
    /// The events of one kind that an outbox row names (its commit's range of event rows), retries left out,
    /// in the columns webhook messages carry (``Outbox/eventColumns``).
    struct SelectOutboxEvents: RowQuery {
        let firstRow: Int64
        let lastRow: Int64
        let kind: EventKind

        func sql(_ dialect: SQLDialect) -> String {
            """
            SELECT \(EventColumns.names(Outbox.eventColumns))
            FROM events WHERE rowid BETWEEN ? AND ? AND kind = ? AND NOT duplicate ORDER BY rowid
            """
        }

        var values: [QueryValue] { [.integer(firstRow), .integer(lastRow), .integer(Int64(kind.rawValue))] }

        func row(_ columns: some QueryRow) throws -> StoredEvent {
            try StoredEvent(row: columns, columns: Outbox.eventColumns)
        }
    }
}
