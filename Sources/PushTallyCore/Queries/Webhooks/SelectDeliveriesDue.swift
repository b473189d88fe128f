extension Queries {
    /// Whether any delivery is due now (one row): SQLite asks in a read before taking its one writer to claim.
    package struct SelectDeliveriesDue: RowQuery {
        package let now: Int64

        package init(now: Int64) { self.now = now }

        package func sql(_ dialect: SQLDialect) -> String {
            "SELECT EXISTS (SELECT 1 FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ? AND leased_until <= ?)"
        }

        package var values: [QueryValue] { [.integer(now), .integer(now)] }

        package func row(_ columns: some QueryRow) throws -> Bool { try columns.boolean(0) }
    }
}
