import PushTallyCore

extension Queries {
    /// Every raw event in rowid order, read by the columns counting needs (``StoredEvent/countedColumns``):
    /// what a rebuild streams into the rollups.
    struct SelectCountedEvents: RowQuery {
        func sql(_ dialect: SQLDialect) -> String {
            "SELECT \(StoredEvent.countedColumns) FROM events ORDER BY rowid"
        }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> StoredEvent {
            try StoredEvent(countedRow: columns)
        }
    }
}
