extension Queries {
    /// Notes a prune's cutoff in `meta`, only ever moving it forward: an earlier cutoff leaves the later one.
    package struct NotePrunedBefore: StoreQuery {
        package let cutoff: Int64

        package init(cutoff: Int64) { self.cutoff = cutoff }

        package func sql(_ dialect: SQLDialect) -> String {
            let later =
                dialect == .sqlite
                ? "max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))" : "GREATEST(meta.value::bigint, excluded.value::bigint)::text"
            return "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = \(later)"
        }

        package var values: [QueryValue] { [.text(AttributionSchema.prunedBeforeKey), .text(String(cutoff))] }
    }
}
