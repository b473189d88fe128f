import PushTallyCore

extension Queries {
    /// The latest prune's cutoff, as text (no row before the first prune).
    struct SelectPrunedBefore: RowQuery {
        func sql(_ dialect: SQLDialect) -> String { "SELECT value FROM meta WHERE key = ?" }

        var values: [QueryValue] { [.text(AttributionSchema.prunedBeforeKey)] }

        func row(_ columns: some QueryRow) throws -> String { try columns.text(0) }
    }
}
