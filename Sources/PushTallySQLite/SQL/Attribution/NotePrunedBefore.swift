import PushTallyCore

extension Queries {
    /// Notes a prune's cutoff in `meta`, only ever moving it forward: an earlier cutoff leaves the later one.
    struct NotePrunedBefore: StoreQuery {
        let cutoff: Int64

        func sql(_ dialect: SQLDialect) -> String {
            """
            INSERT INTO meta (key, value) VALUES (?, ?)
            ON CONFLICT (key) DO UPDATE SET value = max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))
            """
        }

        var values: [QueryValue] { [.text(AttributionSchema.prunedBeforeKey), .text(String(cutoff))] }
    }
}
