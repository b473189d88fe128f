extension Queries {
    /// The latest prune's cutoff as noted in `meta` (no row before the first prune): sessions and conversions
    /// whose windows reach it keep their credit.
    package struct SelectPrunedBefore: RowQuery {
        package init() {}

        package func sql(_ dialect: SQLDialect) -> String { "SELECT value FROM meta WHERE key = ?" }

        package var values: [QueryValue] { [.text(AttributionSchema.prunedBeforeKey)] }

        /// The cutoff, `nil` if the stored text is not a number.
        package func row(_ columns: some QueryRow) throws -> Int64? { Int64(try columns.text(0)) }
    }
}
