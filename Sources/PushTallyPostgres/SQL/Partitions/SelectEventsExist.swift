import PushTallyCore

extension Queries {
    /// Whether `events` holds any row (one row).
    struct SelectEventsExist: RowQuery {
        func sql(_ dialect: SQLDialect) -> String { "SELECT EXISTS (SELECT 1 FROM events)" }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> Bool { try columns.boolean(0) }
    }
}
