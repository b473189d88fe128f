import PushTallyCore

extension Queries {
    /// The latest prune's cutoff as noted in `meta` (no row before the first prune); credits whose windows
    /// reach it are frozen.
    struct SelectPrunedBefore: RowQuery {
        func sql(_ dialect: SQLDialect) -> String {
            "SELECT value FROM meta WHERE key = ?"
        }

        var values: [QueryValue] { [.text(AttributionSchema.prunedBeforeKey)] }

        /// The cutoff, `nil` if the stored text is not a number.
        func row(_ columns: some QueryRow) throws -> Int64? { Int64(try columns.text(0)) }
    }
}
