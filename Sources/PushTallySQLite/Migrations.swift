import GRDB
import PushTallyCore

/// The schema, as numbered forward-only migrations. Never edit a released migration: add the next one.
package enum Migrations {
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-spine") { db in
            // Raw events: append-only, no secondary index, so the hot path is one B-tree append.
            try db.execute(sql: """
                CREATE TABLE events (
                    push_id TEXT NOT NULL,
                    kind INTEGER NOT NULL,
                    action TEXT NOT NULL,
                    received_at INTEGER NOT NULL,
                    event_time INTEGER NOT NULL,
                    duplicate INTEGER NOT NULL,
                    device_id TEXT,
                    receipt_id TEXT,
                    platform TEXT,
                    app_version TEXT,
                    os_version TEXT
                );
                CREATE TABLE dedupe (
                    push_id TEXT NOT NULL,
                    key TEXT NOT NULL,
                    PRIMARY KEY (push_id, key)
                ) WITHOUT ROWID;
                CREATE TABLE rollup_push (
                    push_id TEXT NOT NULL,
                    kind INTEGER NOT NULL,
                    action TEXT NOT NULL,
                    total INTEGER NOT NULL,
                    duplicates INTEGER NOT NULL,
                    first_time INTEGER NOT NULL,
                    last_time INTEGER NOT NULL,
                    PRIMARY KEY (push_id, kind, action)
                ) WITHOUT ROWID;
                CREATE TABLE rollup_bucket (
                    push_id TEXT NOT NULL,
                    bucket INTEGER NOT NULL,
                    kind INTEGER NOT NULL,
                    action TEXT NOT NULL,
                    total INTEGER NOT NULL,
                    duplicates INTEGER NOT NULL,
                    PRIMARY KEY (push_id, bucket, kind, action)
                ) WITHOUT ROWID;
                CREATE TABLE pushes (
                    push_id TEXT PRIMARY KEY NOT NULL,
                    campaign TEXT NOT NULL,
                    title TEXT,
                    sent_at INTEGER,
                    app TEXT,
                    environment TEXT,
                    created_at INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL
                );
                CREATE INDEX pushes_by_campaign ON pushes(campaign);
                -- batch_id '' holds the absolute totals of PUT /v1/pushes/{id}; others are parallel senders' batches.
                CREATE TABLE push_sends (
                    push_id TEXT NOT NULL,
                    batch_id TEXT NOT NULL,
                    targeted INTEGER NOT NULL,
                    sent INTEGER NOT NULL,
                    PRIMARY KEY (push_id, batch_id)
                ) WITHOUT ROWID;
                CREATE TABLE push_failures (
                    push_id TEXT NOT NULL,
                    batch_id TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (push_id, batch_id, reason)
                ) WITHOUT ROWID;
                CREATE TABLE tokens (
                    id TEXT PRIMARY KEY NOT NULL,
                    role TEXT NOT NULL,
                    secret_hash BLOB NOT NULL,
                    label TEXT,
                    created_at INTEGER NOT NULL,
                    revoked_at INTEGER
                );
                """)
        }
        migrator.registerMigration("v2-timing") { db in
            // Time to display per push, in LatencyHistogram buckets, counted once sent_at is known.
            // Receipts of a push without sent_at wait in pending_timing at one-second resolution (clock 0:
            // event time, clock 1: receive time) and are settled into the histogram when sent_at arrives,
            // so registration never scans the raw events table.
            try db.execute(sql: """
                ALTER TABLE rollup_push ADD COLUMN late INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE rollup_latency (
                    push_id TEXT NOT NULL,
                    bucket INTEGER NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (push_id, bucket)
                ) WITHOUT ROWID;
                CREATE TABLE pending_timing (
                    push_id TEXT NOT NULL,
                    clock INTEGER NOT NULL,
                    second INTEGER NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (push_id, clock, second)
                ) WITHOUT ROWID;
                CREATE INDEX pushes_by_app ON pushes(app, environment);
                """)
        }
        migrator.registerMigration("v3-lifecycle") { db in
            // /healthz writes here, so it fails when the disk is full, not only when the file is read-only.
            try db.execute(sql: "CREATE TABLE healthcheck (id INTEGER PRIMARY KEY, checked_at INTEGER NOT NULL)")
            // The ledger holds what pruned raw events contributed to each rollup, in the rollups' own shapes,
            // so rollups can always be rebuilt as ledger + raw events.
            try db.execute(sql: """
                CREATE TABLE ledger_push (
                    push_id TEXT NOT NULL, kind INTEGER NOT NULL, action TEXT NOT NULL,
                    total INTEGER NOT NULL, duplicates INTEGER NOT NULL,
                    first_time INTEGER NOT NULL, last_time INTEGER NOT NULL, late INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (push_id, kind, action)
                ) WITHOUT ROWID;
                CREATE TABLE ledger_bucket (
                    push_id TEXT NOT NULL, bucket INTEGER NOT NULL, kind INTEGER NOT NULL, action TEXT NOT NULL,
                    total INTEGER NOT NULL, duplicates INTEGER NOT NULL,
                    PRIMARY KEY (push_id, bucket, kind, action)
                ) WITHOUT ROWID;
                CREATE TABLE ledger_latency (
                    push_id TEXT NOT NULL, bucket INTEGER NOT NULL, count INTEGER NOT NULL,
                    PRIMARY KEY (push_id, bucket)
                ) WITHOUT ROWID;
                CREATE TABLE ledger_pending (
                    push_id TEXT NOT NULL, clock INTEGER NOT NULL, second INTEGER NOT NULL, count INTEGER NOT NULL,
                    PRIMARY KEY (push_id, clock, second)
                ) WITHOUT ROWID;
                -- Identifies this database in exports, so an import knows which events it already holds.
                CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                INSERT INTO meta (key, value) VALUES ('database_id', lower(hex(randomblob(16))));
                CREATE TABLE imported_events (
                    source TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (source, seq)
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v4-versions") { db in
            // Receipts and opens per app version and OS version, so a version whose extension does not post
            // (opens but no receipts) stands out. dimension 0: app_version, 1: os_version; '' when unknown.
            for table in ["rollup_version", "ledger_version"] {
                try db.execute(sql: """
                    CREATE TABLE \(table) (
                        push_id TEXT NOT NULL, dimension INTEGER NOT NULL, version TEXT NOT NULL,
                        kind INTEGER NOT NULL, action TEXT NOT NULL,
                        total INTEGER NOT NULL, duplicates INTEGER NOT NULL,
                        PRIMARY KEY (push_id, dimension, version, kind, action)
                    ) WITHOUT ROWID
                    """)
            }
        }
        migrator.registerMigration("v5-timing-rows") { db in
            // Time to display moves from a row per push and bucket to a row per push (see TimingTable).
            let sums = (0..<40).map { "SUM(CASE WHEN bucket = \($0) THEN count ELSE 0 END)" }.joined(separator: ", ")
            let columns = (0..<40).map { "b\($0)" }.joined(separator: ", ")
            for (old, new) in [("rollup_latency", "rollup_timing"), ("ledger_latency", "ledger_timing")] {
                try db.execute(sql: TimingTable.create(new))
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
            for (table, source) in [("rollup_time", "rollup_bucket"), ("ledger_time", "ledger_bucket")] {
                try db.execute(sql: """
                    CREATE TABLE \(table) (
                        bucket INTEGER NOT NULL, kind INTEGER NOT NULL, action TEXT NOT NULL,
                        total INTEGER NOT NULL, duplicates INTEGER NOT NULL,
                        PRIMARY KEY (bucket, kind, action)
                    ) WITHOUT ROWID;
                    INSERT INTO \(table) (bucket, kind, action, total, duplicates)
                    SELECT bucket, kind, action, SUM(total), SUM(duplicates) FROM \(source) GROUP BY bucket, kind, action;
                    """)
            }
        }
        migrator.registerMigration("v11-action-ids") { db in
            // The custom action ids each app admitted as report columns (ActionIDs); the others count as 'other'.
            try db.execute(sql: ActionIDTable.create)
        }
        return migrator
    }
}
