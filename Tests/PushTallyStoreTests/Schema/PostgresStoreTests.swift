import Foundation
import PushTallyCore
@testable import PushTallyPostgres
import PushTallySQLite
import PushTallyStores
import PushTallyTestSupport
import Testing

/// What only the PostgreSQL store has: its commit setting, its migrations and the device secret its
/// collectors share. Everything else runs against both stores in the other suites.
@Suite struct PostgresStoreTests {
    func secretPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-secret-\(UUID().uuidString)").path
    }

    @Test func commitsAreSynchronous() async throws {
        try await TestPostgres.withDatabase { url in
            // A database whose default would weaken acknowledgements: the store's own setting must win.
            try await TestPostgres.administer("ALTER DATABASE \(try PostgresURL(url).database) SET synchronous_commit = off")
            let store = try await PostgresStore(url: url, deviceSecretPath: nil, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout)
            defer { store.closeInBackground() }
            #expect(try await store.synchronousCommit() == "on")
        }
    }

    @Test func collectorsStartingTogetherMigrateOnce() async throws {
        try await FreshStore.with(.postgres) { fresh in
            let (url, secret) = (fresh.database, fresh.secretPath)
            // The first creates the secret; the others start at once and must all come up on one schema.
            let first = try await PostgresStore(url: url, deviceSecretPath: secret, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout)
            defer { first.closeInBackground() }
            let others = try await withThrowingTaskGroup(of: PostgresStore.self) { group in
                for _ in 0..<4 { group.addTask { try await PostgresStore(url: url, deviceSecretPath: secret, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            defer { others.forEach { $0.closeInBackground() } }
            let versions = try await first.textRows("SELECT version FROM pushtally_migrations ORDER BY version")
            #expect(versions == PostgresSchema.migrations.map { [String($0.version)] }, "every migration applied once")
            let tokens = try await withThrowingTaskGroup(of: String?.self) { group in
                for store in others { group.addTask { try await store.bootstrapAdminToken(label: "first serve") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(tokens.compactMap { $0 }.count == 1, "one admin token between collectors starting together")
        }
    }

    @Test func refusesADatabaseFromANewerVersion() async throws {
        try await TestPostgres.withDatabase { url in
            let store = try await PostgresStore(url: url, deviceSecretPath: nil, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout)
            _ = try await store.textRows(
                "INSERT INTO pushtally_migrations (version, name) VALUES (999, 'from-the-future') RETURNING version")
            await store.shutdown()
            let location = try PostgresURL(url).description
            await #expect(throws: StoreError.databaseNewerThanCode(path: location)) {
                _ = try await PostgresStore(url: url, deviceSecretPath: nil, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout)
            }
        }
    }

    /// A store opened without the secret (as reports and exports open it) refuses device ids rather than
    /// storing them unkeyed; receipts without one are stored as usual.
    @Test func withoutASecretDeviceIDsAreRefusedNotStoredInTheClear() async throws {
        try await TestPostgres.withDatabase { url in
            let store = try await PostgresStore(url: url, deviceSecretPath: nil, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout)
            defer { store.closeInBackground() }
            await #expect(throws: StoreError.misconfigured("this store was opened without a device secret")) {
                _ = try await store.ingest([receipt("p1"), receipt("p1", device: "install-a")])
            }
            #expect(try await store.ingest([receipt("p1")]) == [false])
            #expect(try await store.textRows("SELECT push_id, device_id IS NULL FROM events") == [["p1", "1"]])
        }
    }

    @Test func everyCollectorNeedsTheSameDeviceSecret() async throws {
        try await TestPostgres.withDatabase { url in
            let secret = secretPath()
            let other = secretPath()
            defer {
                try? FileManager.default.removeItem(atPath: secret)
                try? FileManager.default.removeItem(atPath: other)
            }
            let first = try await PostgresStore(url: url, deviceSecretPath: secret, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout)
            _ = try await first.ingest([IncomingEvent(pushID: "p1", kind: .display, deviceID: "device-a")])
            await first.shutdown()
            // A collector without the file, or with another secret, would hash the same device differently.
            await #expect(throws: StoreError.self) { _ = try await PostgresStore(url: url, deviceSecretPath: other) }
            let secretText = try String(contentsOfFile: secret, encoding: .utf8)
            try String(secretText.reversed().dropFirst()).appending("\n").write(toFile: other, atomically: true, encoding: .utf8)
            await #expect(throws: StoreError.self) { _ = try await PostgresStore(url: url, deviceSecretPath: other) }
            // With the same file, a retry of that device is recognised.
            let second = try await PostgresStore(url: url, deviceSecretPath: secret, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout)
            defer { second.closeInBackground() }
            #expect(try await second.ingest([IncomingEvent(pushID: "p1", kind: .display, deviceID: "device-a")]) == [true])
        }
    }

    @Test func anUnreachableDatabaseIsUnavailableNotACrash() async throws {
        // Nothing listens on port 1; the error must say so in store terms (the HTTP layer answers 503).
        await #expect(throws: StoreError.self) {
            _ = try await PostgresStore(url: "postgres://nobody:x@127.0.0.1:1/none", deviceSecretPath: nil)
        }
    }

    @Test func urlsAreParsedAndPasswordsNeverPrinted() throws {
        let url = try PostgresURL("postgres://app:s%40cret@db.internal:6543/tally?sslmode=require")
        #expect(url.host == "db.internal")
        #expect(url.port == 6543)
        #expect(url.username == "app")
        #expect(url.password == "s@cret")
        #expect(url.database == "tally")
        #expect(url.sslMode == "require")
        #expect(!url.description.contains("cret"))
        #expect(throws: StoreError.self) { try PostgresURL("postgres://db.internal/tally") }
        #expect(throws: StoreError.self) { try PostgresURL("postgres://a@h/d?sslmode=verify-full") }
        #expect(PostgresURL.matches("postgresql://a@h/d"))
        #expect(!PostgresURL.matches("./pushtally.sqlite"))
    }
}

extension PostgresStoreTests {
    /// Collectors write their own rollup rows of a hot push; every report adds them up, and a rebuild (which
    /// folds them into one shard) changes no figure.
    @Test func rollupShardsAddUp() async throws {
        try await FreshStore.with(.postgres) { fresh in
            try await fresh.withTwoCollectors { first, second in
                let now = StoreConfiguration.systemClock()
                _ = try await first.ingest([IncomingEvent(pushID: "hot", kind: .display, deviceID: "a", appVersion: "1.0")])
                _ = try await second.ingest([
                    IncomingEvent(pushID: "hot", kind: .display, deviceID: "a"),  // a retry of the first's receipt
                    IncomingEvent(pushID: "hot", kind: .display, deviceID: "b", appVersion: "1.0"),
                    IncomingEvent(pushID: "hot", kind: .action, action: "open", deviceID: "b"),
                ])
                try await first.register(PushRegistration(pushID: "hot", campaign: "c", sentAtMillis: now - 60_000, counts: SendCounts(sent: 10)))
                _ = try await first.ingest([IncomingEvent(pushID: "hot", kind: .display, deviceID: "c")])
                // Each collector's shard of the day's rows (the day above the 16 plain shards, the collector below).
                let shards = try await first.textRows("SELECT DISTINCT shard % 16, shard >= 16 FROM rollup_push ORDER BY 1")
                #expect(shards == [["1", "1"], ["2", "1"]])
                let figures = try #require(try await second.pushFigures().first)
                #expect(figures.funnel.displayed == 4)
                #expect(figures.funnel.duplicates == 1)
                #expect(figures.funnel.displayedUnique == 3)
                #expect(figures.funnel.opened == 1)
                #expect(figures.funnel.latency.total == 3, "pending timing of both shards settled, plus the one after")
                let versions = try await second.versionCounts(ReportFilter(), dimension: .appVersion)
                #expect(versions.first { $0.version == "1.0" && $0.kind == .display }?.count.total == 2)
                let buckets = try await first.bucketCounts(ReportFilter())
                #expect(buckets.filter { $0.kind == .display }.reduce(0) { $0 + $1.count.total } == 4)
                try await first.rebuildRollups()
                #expect(try await second.pushFigures() == [figures])
                #expect(try await first.textRows("SELECT DISTINCT shard % 16 FROM rollup_push") == [["1"]])
            }
        }
    }
}

extension PostgresStoreTests {
    /// An error raised while the group commit's statement runs (here by a trigger, as a full disk or a
    /// cancelled statement would) fails the ingest: nothing is acknowledged, nothing half-stored.
    @Test func anErrorInsideTheCommitIsNeverAnAcknowledgement() async throws {
        try await TestPostgres.withDatabase { url in
            let store = try await PostgresStore(url: url, deviceSecretPath: nil, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout)
            defer { store.closeInBackground() }
            _ = try await store.textRows("""
                CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'poisoned receipt'; END $$
                """)
            _ = try await store.textRows("""
                CREATE TRIGGER refuse_poison BEFORE INSERT ON events FOR EACH ROW
                WHEN (NEW.push_id = 'poison') EXECUTE FUNCTION refuse_poison()
                """)
            await #expect(throws: (any Error).self) {
                _ = try await store.ingest([
                    IncomingEvent(pushID: "fine", kind: .display), IncomingEvent(pushID: "poison", kind: .display),
                ])
            }
            #expect(try await store.rawEventCount() == 0)
            #expect(try await store.pushFigures().isEmpty, "no rollup of the failed commit survives")
            #expect(try await store.ingest([IncomingEvent(pushID: "fine", kind: .display)]) == [false])
        }
    }
}
