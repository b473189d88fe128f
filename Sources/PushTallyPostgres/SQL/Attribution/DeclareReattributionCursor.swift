import PushTallyCore

extension Queries {
    /// Opens the cursor `reattribute` over the stored history of every device with a session or conversion
    /// (`sessionKind` and above), device by device, so a rebuild holds one device's history at a time
    /// (``FetchReattributionHistory``).
    struct DeclareReattributionCursor: StoreQuery {
        let sessionKind: Int64

        func sql(_ dialect: SQLDialect) -> String {
            """
            DECLARE reattribute NO SCROLL CURSOR FOR
            SELECT e.device_id, e.id, e.kind, e.push_id, e.action, e.event_time, e.receipt_id, e.attribution,
                   e.attributed_push, e.value_micros, e.currency
            FROM events e WHERE NOT e.duplicate AND e.device_id IN (
                SELECT device_id FROM events WHERE kind >= ? AND device_id IS NOT NULL)
            ORDER BY e.device_id
            """
        }

        var values: [QueryValue] { [.integer(sessionKind)] }
    }
}
