/// The kinds of name the product stores, each compared only with names of its own kind: two spellings of one
/// name are one name only within a domain (a campaign and an app may share a spelling).
package enum NameDomain: String, Sendable, CaseIterable {
    case pushID = "push_id"
    case campaign
    case app
    case action
    /// App and OS versions: one column of the version rollups holds both, told apart by its dimension.
    case version
    case platform
    case variant
    case collapseID = "collapse_id"
    case batchID = "batch_id"
    case currency
    case failureReason = "failure_reason"
    case conversionName = "conversion_name"
    case alertName = "alert_name"
}

/// One stored column that holds names of a domain, in the rows `condition` selects (every row when `nil`).
package struct StoredNameColumn: Sendable, Hashable {
    package var table: String
    package var column: String
    /// A condition on the row, for a column that holds names of several domains told apart by another column.
    package var condition: String?

    package init(_ table: String, _ column: String, where condition: String? = nil) {
        self.table = table
        self.column = column
        self.condition = condition
    }
}

/// Every stored column that holds a name, by domain, and every other text column of both engines' schemas with
/// the reason it holds no name. A test holds both lists to the fresh schemas, so a table added without saying
/// which of its columns are names fails it. The spelling migration (``SpellingMigration``) renames what is
/// listed here.
package enum StoredNames {
    /// The rollup and ledger tables that key rows by push, each with a `push_id` column.
    private static let pushRollups = [RollupTarget.rollups, .ledger].flatMap { target in
        [
            target.push, target.bucket, target.timing, target.pending, target.version, target.outcome, target.media,
            target.mediaBucket, target.mediaVersion, target.platformBucket,
        ]
    }

    /// The tables whose `action` column holds the action of a rollup row.
    private static let actionRollups = [RollupTarget.rollups, .ledger].flatMap { target in
        [target.push, target.bucket, target.version, target.time, target.platformBucket]
    }

    /// The tables whose `version` column holds an app version, an OS version or a platform, by `dimension`.
    private static let versionRollups = [RollupTarget.rollups, .ledger].flatMap { target in
        [target.version, target.mediaVersion]
    }

    /// The columns of each domain.
    package static func columns(_ domain: NameDomain) -> [StoredNameColumn] {
        switch domain {
        case .pushID:
            return [
                StoredNameColumn("events", "push_id"), StoredNameColumn("events", "attributed_push"),
                StoredNameColumn("dedupe", "push_id"), StoredNameColumn("pushes", "push_id"),
                StoredNameColumn("push_sends", "push_id"), StoredNameColumn("push_failures", "push_id"),
                StoredNameColumn("push_send_platforms", "push_id"), StoredNameColumn("fcm_deliveries", "push_id"),
                StoredNameColumn("rollup_fcm", "push_id"), StoredNameColumn("send_records", "push_id"),
            ] + pushRollups.map { StoredNameColumn($0, "push_id") }
        case .campaign:
            return [
                StoredNameColumn("pushes", "campaign"), StoredNameColumn("alerts", "campaign"),
                StoredNameColumn("send_records", "campaign"),
            ]
        case .app:
            return [
                StoredNameColumn("events", "app"), StoredNameColumn("pushes", "app"), StoredNameColumn("action_ids", "app"),
                StoredNameColumn("dimension_values", "app"), StoredNameColumn("rollup_audience", "app"), StoredNameColumn("alerts", "app"),
                StoredNameColumn("send_records", "app"), StoredNameColumn("device_states", "app"),
            ]
        case .action:
            return [StoredNameColumn("events", "action"), StoredNameColumn("action_ids", "action")]
                + actionRollups.map { StoredNameColumn($0, "action") }
        case .version:
            let versions = "dimension IN (\(VersionDimension.appVersion.rawValue), \(VersionDimension.osVersion.rawValue))"
            return [
                StoredNameColumn("events", "app_version"), StoredNameColumn("events", "os_version"),
                StoredNameColumn("rollup_audience", "app_version"), StoredNameColumn("dimension_values", "value", where: versions),
            ] + versionRollups.map { StoredNameColumn($0, "version", where: versions) }
        case .platform:
            let platforms = "dimension = \(VersionDimension.platform.rawValue)"
            return [
                StoredNameColumn("events", "platform"), StoredNameColumn("push_send_platforms", "platform"),
                StoredNameColumn("rollup_platform_bucket", "platform"), StoredNameColumn("ledger_platform_bucket", "platform"),
                StoredNameColumn("fcm_deliveries", "platform"), StoredNameColumn("rollup_fcm", "platform"),
                StoredNameColumn("send_records", "platform"), StoredNameColumn("device_states", "platform"),
                StoredNameColumn("dimension_values", "value", where: platforms),
            ] + versionRollups.map { StoredNameColumn($0, "version", where: platforms) }
        case .variant:
            return [StoredNameColumn("pushes", "variant")]
        case .collapseID:
            return [StoredNameColumn("pushes", "collapse_id")]
        case .batchID:
            return ["push_sends", "push_failures", "push_send_platforms", "send_records"].map { StoredNameColumn($0, "batch_id") }
        case .currency:
            return [StoredNameColumn("events", "currency")]
                + [RollupTarget.rollups, .ledger].flatMap { [$0.outcome, $0.outcomeTime] }.map { StoredNameColumn($0, "currency") }
        case .failureReason:
            return [StoredNameColumn("push_failures", "reason")]
        case .conversionName:
            return [StoredNameColumn("events", "name")]
        case .alertName:
            return [StoredNameColumn("alerts", "name")]
        }
    }

    /// Text columns that hold no name of any domain, as `table.column`, with why; a table listed as `table.*`
    /// holds none in any column.
    package static let notNames: [String: String] = [
        "events.device_id": "a keyed hash of the device id (DeviceHasher): the id itself is not stored",
        "events.receipt_id": "kept as stored: its dedupe key was made from this spelling, and keys cannot be renamed",
        "events.event_id": "an imported event's id where it was first stored (a database id and a number), never a name",
        "dedupe.key": "a dedupe key: made from the action, receipt id and keyed device id as stored",
        "rollup_audience.device_id": "a keyed hash of the device id",
        "events.media": "one of a fixed set (ReceiptMedia)",
        "events.notification_permission": "one of a fixed set",
        "rollup_audience.permission": "one of a fixed set",
        "fcm_deliveries.event": "one of FCM's event names",
        "rollup_fcm.event": "one of FCM's event names",
        "fcm_deliveries.instance_key": "FCM's id of an app instance",
        "fcm_deliveries.message_id": "FCM's message id",
        "send_records.failures": "a log line's refusals as JSON text, kept as the record was stored",
        "device_states.device_id": "a keyed hash of the device id",
        "device_states.sends": "the push ids sent to the device in the kept window, as JSON text, kept as posted",
        "device_states.last_outcome": "the provider's outcome as the backend posted it",
        "device_states.recipient": "the backend's opaque reference",
        "device_states.permission": "one of a fixed set",
        "pushes.title": "free text shown as sent, never compared",
        "pushes.environment": "production or sandbox",
        "pushes.push_type": "one of APNs' push types",
        "alerts.id": "an id the store draws",
        "alerts.kind": "one of a fixed set",
        "alerts.state": "one of a fixed set",
        "alerts.detail": "free text the evaluator writes",
        "alert_history.*": "ids the store draws, states and the evaluator's text",
        "webhooks.*": "ids, URLs, secrets, states, event type lists and free text",
        "webhook_messages.*": "ids, event types and JSON bodies",
        "webhook_deliveries.*": "ids, states and error text",
        "webhook_outbox.*": "event types and JSON",
        "tokens.*": "ids, roles, secret hashes and free-text labels",
        "meta.*": "settings",
        "imported_events.source": "the database id an export names",
        "legacy_spellings.*": "the record of spellings kept as stored",
        "grdb_migrations.*": "SQLite's migration records",
        "sqlite_sequence.*": "SQLite's own",
        "pushtally_migrations.*": "PostgreSQL's migration records",
        "retired_events.*": "PostgreSQL's retired day partitions",
    ]

    /// Whether `table.column` is in ``notNames``.
    package static func isNotName(table: String, column: String) -> Bool {
        notNames["\(table).\(column)"] != nil || notNames["\(table).*"] != nil
    }
}
