import PushTallyCore

extension Queries {
    /// Records a prune's cutoff, only ever moving it forward: sessions and conversions whose windows reach it keep
    /// their credit from then on.
    struct NotePrunedBefore: StoreQuery {
        let cutoff: Int64

        func sql(_ dialect: SQLDialect) -> String {
            """
            INSERT INTO meta (key, value) VALUES (?, ?)
            ON CONFLICT (key) DO UPDATE SET value = GREATEST(meta.value::bigint, excluded.value::bigint)::text
            """
        }

        var values: [QueryValue] { [.text(AttributionSchema.prunedBeforeKey), .text(String(cutoff))] }
    }
}
