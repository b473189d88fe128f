import PushTallyCore

extension Queries {
    /// Whether a device has a session or conversion from a time on (a row when it has), so a commit that only
    /// brought a device receipts or taps reads its events only when there is a credit they could move.
    /// Prepared once per commit and bound per device.
    enum SelectDeviceHasOutcome {
        static let sql = """
            SELECT 1 FROM events WHERE device_id = ? AND event_time >= ? AND kind >= \(EventKind.session.rawValue)
            AND duplicate = 0 LIMIT 1
            """
    }
}
