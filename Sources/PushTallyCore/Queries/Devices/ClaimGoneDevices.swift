extension Queries {
    /// Marks devices found gone as notified, unless a `device.gone` already named them since their client was last
    /// heard from, and answers those it marked: a notifier on another collector that found them too marks none, so
    /// each turn to gone is named once. It checks again that each is gone (an accepted last send, a client heard
    /// from once, no display and no session since `sinceMillis`): one that came back since it was found stays.
    package struct ClaimGoneDevices: RowQuery {
        package let keys: [String]
        package let sinceMillis: Int64
        package let nowMillis: Int64

        package init(keys: [String], sinceMillis: Int64, nowMillis: Int64) {
            self.keys = keys
            self.sinceMillis = sinceMillis
            self.nowMillis = nowMillis
        }

        package func sql(_ dialect: SQLDialect) -> String {
            let latest = dialect == .sqlite
                ? "max(COALESCE(last_display_at, 0), COALESCE(last_session_at, 0))"
                : "GREATEST(COALESCE(last_display_at, 0), COALESCE(last_session_at, 0))"
            return """
                UPDATE device_states SET gone_notified_at = ?
                WHERE device_id IN (\(keys.map { _ in "?" }.joined(separator: ", ")))
                    AND (gone_notified_at IS NULL OR gone_notified_at < \(latest))
                    AND (last_outcome IS NULL OR last_outcome = '\(DeliveryLine.accepted)') AND first_client_at IS NOT NULL
                    AND COALESCE(last_display_at, 0) < ? AND COALESCE(last_session_at, 0) < ?
                RETURNING device_id
                """
        }

        package var values: [QueryValue] { [.integer(nowMillis)] + keys.map { .text($0) } + [.integer(sinceMillis), .integer(sinceMillis)] }

        package func row(_ columns: some QueryRow) throws -> String { try columns.text(0) }
    }
}
