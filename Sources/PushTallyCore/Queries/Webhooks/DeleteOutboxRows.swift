extension Queries {
    /// Deletes the outbox rows just packed, by `seq`.
    package struct DeleteOutboxRows: StoreQuery {
        package let seqs: [Int64]

        package init(seqs: [Int64]) { self.seqs = seqs }

        package func sql(_ dialect: SQLDialect) -> String {
            "DELETE FROM webhook_outbox WHERE \(dialect.contains("seq"))"
        }

        package var values: [QueryValue] { [.integers(seqs)] }
    }
}
