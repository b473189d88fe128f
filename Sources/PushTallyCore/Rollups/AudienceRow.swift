/// One device's latest notification setting in one 15-minute bucket, app and app version with a session: a
/// row of the audience rollup (``SQLDialect/createAudience``).
///
/// Rows merge by keeping the greatest ``rank``: a reported setting over none, then the later session, then
/// the setting's name. The order is total, so the merge is a maximum: whatever order sessions arrive in, and
/// however many collectors write them, the stored row is the same.
package struct AudienceRow: Sendable, Hashable {
    package struct Key: Sendable, Hashable {
        package var bucket: Int64
        /// The keyed hash the raw events hold (``DeviceHasher``).
        package var deviceID: String
        /// `""` when the session named none.
        package var app: String
        package var appVersion: String

        /// The table's key order, which writers take their row locks in.
        package static func precedes(_ a: Key, _ b: Key) -> Bool {
            if a.bucket != b.bucket { return a.bucket < b.bucket }
            if a.deviceID != b.deviceID { return a.deviceID.utf8.lexicographicallyPrecedes(b.deviceID.utf8) }
            if a.app != b.app { return a.app.utf8.lexicographicallyPrecedes(b.app.utf8) }
            return a.appVersion.utf8.lexicographicallyPrecedes(b.appVersion.utf8)
        }
    }

    package var key: Key
    /// When the kept session began (its event time).
    package var sessionTime: Int64
    /// The setting it reported; `nil` when it reported none.
    package var permission: NotificationPermission?

    package init(key: Key, sessionTime: Int64, permission: NotificationPermission?) {
        self.key = key
        self.sessionTime = sessionTime
        self.permission = permission
    }

    /// The row a stored session contributes; `nil` for a retry, an event that is not a session, or one
    /// without a device.
    package init?(_ event: StoredEvent, duplicate: Bool) {
        guard event.kind == .session, !duplicate, let deviceID = event.deviceID else { return nil }
        self.init(
            key: Key(
                bucket: EventTime.bucket(ofMillis: event.eventTime), deviceID: deviceID, app: event.app ?? "",
                appVersion: event.appVersion ?? ""),
            sessionTime: event.eventTime, permission: event.notificationPermission)
    }

    /// `known` as stored: 1 when the session reported a setting.
    package var known: Int64 { permission == nil ? 0 : 1 }
    /// The setting as stored: `""` for none.
    package var storedPermission: String { permission?.rawValue ?? "" }

    /// Whether this row gives way to `other` when both have one key: the order the upsert and the report's
    /// read compare rows by (``AudienceTable/rank``).
    package func ranksBelow(_ other: AudienceRow) -> Bool {
        if known != other.known { return known < other.known }
        if sessionTime != other.sessionTime { return sessionTime < other.sessionTime }
        return storedPermission.utf8.lexicographicallyPrecedes(other.storedPermission.utf8)
    }

    /// The rows `rows` leave once merged: one per key, the greatest rank kept, in key order. A multi-row
    /// upsert must not name one key twice (PostgreSQL refuses to update a row twice in one statement).
    package static func merged(_ rows: some Sequence<AudienceRow>) -> [AudienceRow] {
        var kept: [Key: AudienceRow] = [:]
        for row in rows {
            if let stored = kept[row.key], !stored.ranksBelow(row) { continue }
            kept[row.key] = row
        }
        return kept.values.sorted { Key.precedes($0.key, $1.key) }
    }
}

extension CommitPlan {
    /// The audience rollup's rows: each new session's device, bucket, app, version and setting, merged.
    package var audience: [AudienceRow] {
        // By index, kind first: a commit of receipts has no session, and a pair per event would copy each one.
        var rows: [AudienceRow] = []
        for index in events.indices where events[index].kind == .session {
            if let row = AudienceRow(events[index], duplicate: duplicates[index]) { rows.append(row) }
        }
        return AudienceRow.merged(rows)
    }
}
