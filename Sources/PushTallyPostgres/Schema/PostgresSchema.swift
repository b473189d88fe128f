import Logging
import NIOPosix
import PostgresNIO
import PushTallyCore

/// The PostgreSQL schema as numbered, forward-only migrations, beside the SQLite ones (`Migrations`).
///
/// Tables and columns carry the SQLite names, so `migrate-store` copies table by table. Differences: integers
/// are `BIGINT`, `duplicate` is `BOOLEAN`, blobs are `BYTEA`, and raw events get an identity `id` where
/// SQLite has its `rowid`. PostgreSQL starts at the SQLite schema's current shape (SQLite v5).
package enum PostgresSchema {
    /// An arbitrary constant: the session advisory lock that lets one collector migrate while others wait.
    static let migrationLock: Int64 = 0x5055_5348_5441_4C59  // "PUSHTALY"

    static let migrations: [(version: Int, name: String, sql: [String])] = [
        (1, "v1-schema", version1),
        (2, "v2-webhooks-alerts", WebhookSchema.statements(dialect: .postgres)),
        (3, "v3-attribution", AttributionSchema.statements(dialect: .postgres)),
        (4, "v4-outcome-shards", outcomeShards),
        (5, "v5-send-attributes", SendAttributeColumns.additions(integer: "BIGINT")),
        (6, "v6-collapse-index", [SendAttributeColumns.collapseIndex]),
        (7, "v7-time-rollup", timeRollup),
        (8, "v8-ingest-guard", IngestGuardSchema.version8),
        (9, "v9-action-ids", [AdmittedNameTables.createActionIDs]),
        (10, "v10-media-permission", EventColumns.mediaAndPermission.map(sql.addEventColumn)),
        (11, "v11-media-rollups", MediaRollupSchema.statements(dialect: .postgres)),
        // Devices by their latest notification setting (AudienceTable), filled from the raw sessions kept.
        (12, "v12-audience", sql.audienceMigration),
        (13, "v13-platform-dimension", sql.platformBackfill),
        // Runs as ``PartitionMigration`` (batches of transactions of its own), not as statements.
        (PartitionMigration.version, PartitionMigration.name, []),
        // Receipts and actions per push, bucket and named platform, filled from the stored raw events.
        (15, "v15-platform-buckets", PlatformBucketSchema.statements(dialect: .postgres)),
        // Live rollup rows keyed by their events' day of receipt, so retention folds a day from its rows.
        (DatedShards.version, "v17-dated-rollups", DatedShards.migration),
        (AttributionProbeSchema.version, AttributionProbeSchema.name, AttributionProbeSchema.statements),
        // Conversion values as two parts (MoneyTotal), exact past 64 bits of millionths.
        (19, "v19-value-units", AttributionSchema.valueUnitsAddition(dialect: .postgres)),
        (RollupShardLockSchema.version, RollupShardLockSchema.name, RollupShardLockSchema.statements),
        // The platform a send record names, beside the records (SendPlatformSchema).
        (21, "v21-send-platforms", SendPlatformSchema.migration(dialect: .postgres)),
        // FCM's delivery events by key, and their counts per push, platform and event (FCMDeliverySchema).
        (22, "v22-fcm-deliveries", FCMDeliverySchema.migration(dialect: .postgres)),
        // Names stored before they were put in NFC at the door: renamed, or kept and recorded (SpellingMigration),
        // by ``PostgresSpellings`` after the table is made.
        (SpellingMigration.postgresVersion, SpellingMigration.postgresName, [SpellingMigration.createLegacySpellings]),
        // Campaign names in byte order, the order reports are read in pages by (SQLDialect.campaignNames), whatever the
        // database's collation.
        (24, "v24-campaigns-by-bytes", [#"CREATE INDEX pushes_by_campaign_bytes ON pushes (campaign COLLATE "C")"#]),
        // Platforms stored before they were folded at the door: one spelling each, their rows merged.
        (PlatformCaseMigration.postgresVersion, PlatformCaseMigration.postgresName, PlatformCaseMigration.statements(.postgres)),
        // The platforms and versions each app admitted as report rows, seeded with those the rollups hold.
        (DimensionValueMigration.postgresVersion, DimensionValueMigration.postgresName, DimensionValueMigration.statements(.postgres)),
        // The event feed's order (EventCursor) and imported events' ids.
        (27, "v27-event-feed", EventFeedSchema.migration),
        // The send log and FCM deliveries' positions, in the feed beside raw events.
        (28, "v28-feed-tables", FeedTablesSchema.migration(dialect: .postgres)),
        // Per-device delivery states.
        (29, "v29-device-states", DeviceStateSchema.migration(dialect: .postgres)),
        (CommitOpenSchema.version, CommitOpenSchema.name, CommitOpenSchema.statements),
    ]

    /// How a migration run is bounded: tests build a database of an earlier schema, or stop one part way.
    package struct Limits: Sendable {
        /// The newest version applied; every one when `nil`.
        package var through: Int?
        /// Versions left out: a database of the schema without them (each migration stands on its own, so the
        /// rest apply in any combination, and the code that writes to them finds their tables).
        package var skipping: Set<Int>
        package var partitionBatchSize = 50_000
        package var interruptAfterBatches: Int?

        package init(
            through: Int? = nil, skipping: Set<Int> = [], partitionBatchSize: Int = 50_000, interruptAfterBatches: Int? = nil
        ) {
            self.through = through
            self.skipping = skipping
            self.partitionBatchSize = partitionBatchSize
            self.interruptAfterBatches = interruptAfterBatches
        }
    }

    /// The series over every push (`RollupTarget.time`), filled from the bucket rollups it sums. The live
    /// table is sharded like the other rollups: every commit of every collector adds to the current quarter
    /// hour's row.
    private static let timeRollup = [RollupTarget.rollups, .ledger].flatMap { target in
        [
            sql.createReleased(.time, in: target, sharded: sql.shards(target)),
            """
            INSERT INTO \(target.time) (bucket, kind, action, total, duplicates)
            SELECT bucket, kind, action, SUM(total), SUM(duplicates) FROM \(target.bucket) GROUP BY bucket, kind, action
            """,
        ]
    }

    /// The live outcome rollups get a shard per collector like the other rollups (see PostgresRollupWriter):
    /// every session of a quarter hour lands on the same few `rollup_outcome_time` rows. Last, so the
    /// ledger's rows still copy into them column for column.
    private static let outcomeShards = ["rollup_outcome", "rollup_outcome_time"].flatMap { table in
        let key = table == "rollup_outcome" ? "push_id" : "bucket"
        return [
            "ALTER TABLE \(table) ADD COLUMN shard BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE \(table) DROP CONSTRAINT \(table)_pkey",
            "ALTER TABLE \(table) ADD PRIMARY KEY (\(key), measure, currency, shard)",
        ]
    }

    private static let sql = SQLDialect.postgres

    private static let version1: [String] = [
        sql.createEvents, sql.createDedupe, sql.createPushes, SQLDialect.pushesByCampaign, SQLDialect.pushesByApp,
        sql.createPushSends, sql.createPushFailures, sql.createTokens, sql.createHealthcheck, sql.createMeta,
        // The database's id drawn by PostgreSQL's own generator (SQLite has no uuid function).
        "INSERT INTO meta (key, value) VALUES ('database_id', replace(gen_random_uuid()::text, '-', ''))",
        sql.createImportedEvents,
    ] + [RollupTarget.rollups, .ledger].flatMap { target in
        // Live rollups carry a shard per collector (see PostgresRollupWriter), last so that the ledger's rows
        // copy into them column for column.
        [RollupTable.push, .bucket, .version, .timing, .pending].map { sql.createReleased($0, in: target, sharded: sql.shards(target)) }
    }

    /// Brings the database up to date. Collectors starting together queue on one advisory lock, so the
    /// migrations run once; the rest find them applied.
    ///
    /// - Throws: ``StoreError/databaseNewerThanCode(path:)`` when a newer PushTally has migrated it.
    ///
    /// Runs on a connection of its own, outside the pool: an unreachable server fails start-up at once
    /// instead of after the pool's reconnection attempts.
    /// Then creates the raw event partitions of the days around `nowMillis` (``EventPartitions``).
    /// - Returns: whether raw events are partitioned (an earlier schema's are not).
    @discardableResult
    package static func migrate(_ url: PostgresURL, nowMillis: Int64, limits: Limits = Limits(), logger: Logger) async throws -> Bool {
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: try url.connectionConfiguration(), id: 0,
            logger: logger)
        do {
            // A session lock: released by the unlock below, or by the server if this process dies meanwhile.
            try await connection.run("SELECT pg_advisory_lock(\(migrationLock))", logger: logger)
            try await applyPending(on: connection, location: url.description, nowMillis: nowMillis, limits: limits, logger: logger)
            let partitioned = try await PartitionMigration.relationKind("events", on: connection, logger: logger) == "p"
            if partitioned {
                try await EventPartitions.ensure(EventPartitions.daysAround(nowMillis), on: connection, logger: logger)
            }
            try await connection.close()
            return partitioned
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Checks, without writing, that a database (a read replica) holds no PushTally schema newer than this
    /// code; `false` when it holds none yet (a standby that has not replayed its primary's first migration, or
    /// one that is not a standby of a collectors' database at all).
    ///
    /// - Throws: ``StoreError/databaseNewerThanCode(path:)`` when a newer PushTally migrated it.
    static func requireReadable(_ url: PostgresURL, logger: Logger) async throws -> Bool {
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: try url.connectionConfiguration(), id: 0,
            logger: logger)
        do {
            let newest = try await connection.run(
                "SELECT (SELECT max(version) FROM pushtally_migrations) WHERE to_regclass('pushtally_migrations') IS NOT NULL",
                logger: logger
            ).decode(Int?.self).first
            try await connection.close()
            guard let newest, let version = newest else { return false }
            if version > migrations.map(\.version).max() ?? 0 { throw StoreError.databaseNewerThanCode(path: url.description) }
            return true
        } catch {
            try? await connection.close()
            throw error
        }
    }

    private static func applyPending(
        on connection: PostgresConnection, location: String, nowMillis: Int64, limits: Limits, logger: Logger
    ) async throws {
        try await connection.run(
            """
            CREATE TABLE IF NOT EXISTS pushtally_migrations (
                version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
            """, logger: logger)
        var applied = Set<Int>()
        for version in try await connection.run("SELECT version FROM pushtally_migrations", logger: logger)
            .decode(Int.self)
        {
            applied.insert(version)
        }
        if let newest = applied.max(), newest > migrations.map(\.version).max() ?? 0 {
            throw StoreError.databaseNewerThanCode(path: location)
        }
        for migration in migrations
        where !applied.contains(migration.version) && migration.version <= limits.through ?? .max
            && !limits.skipping.contains(migration.version)
        {
            logger.info("migrating PostgreSQL schema", metadata: ["migration": "\(migration.name)"])
            if migration.version == PartitionMigration.version {
                try await PartitionMigration.run(
                    on: connection, nowMillis: nowMillis, batchSize: limits.partitionBatchSize,
                    interruptAfterBatches: limits.interruptAfterBatches, logger: logger)
                continue
            }
            try await connection.run("BEGIN", logger: logger)
            do {
                for statement in migration.sql {
                    try await connection.run(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                let kept = migration.version == SpellingMigration.postgresVersion
                    ? try await PostgresSpellings.run(on: connection, logger: logger) : []
                try await connection.run(
                    "INSERT INTO pushtally_migrations (version, name) VALUES (\(migration.version), \(migration.name))",
                    logger: logger)
                try await connection.commit(logger: logger)
                SpellingMigration.warn(kept, logger: logger)
            } catch {
                await connection.rollBack(after: error, logger: logger)
                throw error
            }
        }
    }
}
