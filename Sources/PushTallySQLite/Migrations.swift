import GRDB
import PushTallyCore

/// The schema, as numbered forward-only migrations. Never edit a released migration: add the next one.
package enum Migrations {
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        let sql = SQLDialect.sqlite
        migrator.registerMigration("v1-spine") { db in
            for statement in [
                sql.createEvents, sql.createDedupe,
                // As first released; v2 adds `late` (the shared definition has it).
                """
                CREATE TABLE rollup_push (
                    push_id TEXT NOT NULL, kind INTEGER NOT NULL, action TEXT NOT NULL,
                    total INTEGER NOT NULL, duplicates INTEGER NOT NULL, first_time INTEGER NOT NULL, last_time INTEGER NOT NULL,
                    PRIMARY KEY (push_id, kind, action)
                ) WITHOUT ROWID
                """,
                sql.createReleased(.bucket, in: .rollups, sharded: false), sql.createPushes, SQLDialect.pushesByCampaign,
                sql.createPushSends, sql.createPushFailures, sql.createTokens,
            ] {
                try db.execute(sql: statement)
            }
        }
        migrator.registerMigration("v2-timing") { db in
            // Time to display per push, in LatencyHistogram buckets, counted once sent_at is known.
            // Receipts of a push without sent_at wait in pending_timing at one-second resolution (clock 0:
            // event time, clock 1: receive time) and are settled into the histogram when sent_at arrives,
            // so registration never scans the raw events table. (rollup_latency gives way to rollup_timing in v5.)
            for statement in [
                "ALTER TABLE rollup_push ADD COLUMN late INTEGER NOT NULL DEFAULT 0",
                Self.latencyRows("rollup_latency"), sql.createReleased(.pending, in: .rollups, sharded: false),
                SQLDialect.pushesByApp,
            ] {
                try db.execute(sql: statement)
            }
        }
        migrator.registerMigration("v3-lifecycle") { db in
            // The ledger holds what pruned raw events contributed to each rollup, in the rollups' own shapes,
            // so rollups can always be rebuilt as ledger + raw events.
            for statement in [
                sql.createHealthcheck, sql.createReleased(.push, in: .ledger, sharded: false),
                sql.createReleased(.bucket, in: .ledger, sharded: false), Self.latencyRows("ledger_latency"),
                sql.createReleased(.pending, in: .ledger, sharded: false), sql.createMeta,
                "INSERT INTO meta (key, value) VALUES ('database_id', lower(hex(randomblob(16))))",
                sql.createImportedEvents,
            ] {
                try db.execute(sql: statement)
            }
        }
        migrator.registerMigration("v4-versions") { db in
            // Receipts and opens per app version and OS version, so a version whose extension does not post
            // (opens but no receipts) stands out. dimension 0: app_version, 1: os_version; '' when unknown.
            for target in [RollupTarget.rollups, .ledger] {
                try db.execute(sql: sql.createReleased(.version, in: target, sharded: false))
            }
        }
        migrator.registerMigration("v5-timing-rows") { db in
            // Time to display moves from a row per push and bucket to a row per push (see TimingTable).
            let sums = (0..<40).map { "SUM(CASE WHEN bucket = \($0) THEN count ELSE 0 END)" }.joined(separator: ", ")
            let columns = (0..<40).map { "b\($0)" }.joined(separator: ", ")
            for (old, target) in [("rollup_latency", RollupTarget.rollups), ("ledger_latency", .ledger)] {
                let new = target.timing
                try db.execute(sql: sql.createReleased(.timing, in: target, sharded: false))
                try db.execute(sql: "INSERT INTO \(new) (push_id, \(columns)) SELECT push_id, \(sums) FROM \(old) GROUP BY push_id")
                try db.execute(sql: "DROP TABLE \(old)")
            }
            // Events that name no version are derived from rollup_push from now on (see versionCounts).
            try db.execute(sql: "DELETE FROM rollup_version WHERE version = ''")
            try db.execute(sql: "DELETE FROM ledger_version WHERE version = ''")
        }
        migrator.registerMigration("v6-webhooks-alerts") { db in
            try db.execute(sql: WebhookSchema.sql(dialect: .sqlite))
        }
        migrator.registerMigration("v7-attribution") { db in
            for statement in AttributionSchema.statements(dialect: .sqlite) { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v8-send-attributes") { db in
            for statement in SendAttributeColumns.additions(integer: "INTEGER") { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v9-collapse-index") { db in
            try db.execute(sql: SendAttributeColumns.collapseIndex)
        }
        migrator.registerMigration("v10-time-rollup") { db in
            // The series over every push (RollupTarget.time), filled from the bucket rollups it sums.
            for target in [RollupTarget.rollups, .ledger] {
                try db.execute(sql: sql.createReleased(.time, in: target, sharded: false))
                try db.execute(sql: """
                    INSERT INTO \(target.time) (bucket, kind, action, total, duplicates)
                    SELECT bucket, kind, action, SUM(total), SUM(duplicates) FROM \(target.bucket) GROUP BY bucket, kind, action
                    """)
            }
        }
        migrator.registerMigration("v11-action-ids") { db in
            // The custom action ids each app admitted as report columns (BoundedField); the others count as 'other'.
            try db.execute(sql: AdmittedNameTables.createActionIDs)
        }
        migrator.registerMigration("v12-media-permission") { db in
            for column in EventColumns.mediaAndPermission { try db.execute(sql: sql.addEventColumn(column)) }
        }
        migrator.registerMigration("v13-media-rollups") { db in
            // Unique displays by media outcome and extension time, filled from the ledger and the stored events.
            for statement in MediaRollupSchema.statements(dialect: .sqlite) { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v14-audience") { db in
            // Devices by their latest notification setting (AudienceTable), filled from the raw sessions kept.
            for statement in sql.audienceMigration { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v15-platform-dimension") { db in
            for statement in sql.platformBackfill { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v16-platform-buckets") { db in
            // Receipts and actions per push, bucket and named platform, filled from the stored raw events.
            for statement in PlatformBucketSchema.statements(dialect: .sqlite) { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v17-value-units") { db in
            for statement in AttributionSchema.valueUnitsAddition(dialect: .sqlite) { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v18-send-platforms") { db in
            // The platform a send record names, beside the records (SendPlatformSchema).
            for statement in SendPlatformSchema.migration(dialect: .sqlite) { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v19-fcm-deliveries") { db in
            // FCM's delivery events by key, and their counts per push, platform and event (FCMDeliverySchema).
            for statement in FCMDeliverySchema.migration(dialect: .sqlite) { try db.execute(sql: statement) }
        }
        migrator.registerMigration(SpellingMigration.sqliteIdentifier) { db in
            // Names stored before they were put in NFC at the door: renamed, or kept and recorded (SpellingMigration).
            try SQLiteSpellings.migrate(db)
        }
        migrator.registerMigration(PlatformCaseMigration.sqliteIdentifier) { db in
            // Platforms stored before they were folded at the door: one spelling each, their rows merged.
            for statement in PlatformCaseMigration.statements(.sqlite) { try db.execute(sql: statement) }
        }
        migrator.registerMigration(DimensionValueMigration.sqliteIdentifier) { db in
            // The platforms and versions each app admitted as report rows, seeded with those the rollups hold.
            for statement in DimensionValueMigration.statements(.sqlite) { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v23-event-ids") { db in
            // An imported event's id where it was first stored (EventColumn.eventID); NULL for the rest.
            for column in EventColumns.eventIdentity { try db.execute(sql: sql.addEventColumn(column)) }
        }
        migrator.registerMigration("v24-feed-tables") { db in
            // The send log, and FCM deliveries' positions, both at positions after every one handed out, so a feed
            // reader already past every raw event reads what was stored before the log next.
            let top = try EventPositions.next(in: db) - 1
            for statement in FeedTablesSchema.migration(dialect: .sqlite, top: top) { try db.execute(sql: statement) }
            let last = try Int64.fetchOne(db, sql: "SELECT max(id) FROM (SELECT id FROM send_records UNION ALL SELECT id FROM fcm_deliveries)")
            if let last, last > top { try EventPositions.raise(to: last, in: db) }
        }
        migrator.registerMigration("v25-device-states") { db in
            for statement in DeviceStateSchema.migration(dialect: .sqlite) { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v26-device-activity-by-writer") { db in
            // The writer keeps device_states' client times for the events that name a device (DeviceClientTimes):
            // the row trigger ran its program for every raw row, device or not.
            try db.execute(sql: "DROP TRIGGER IF EXISTS events_device_activity")
        }
        return migrator
    }

    /// The per-bucket latency rows of v2 and v3, replaced by one row per push in v5.
    private static func latencyRows(_ table: String) -> String {
        "CREATE TABLE \(table) (push_id TEXT NOT NULL, bucket INTEGER NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (push_id, bucket)) WITHOUT ROWID"
    }
}
