import Foundation
import PostgresNIO
import PushTallyCore
@testable import PushTallyPostgres
import PushTallyTestSupport
import Testing

/// A commit of sessions or conversions leaves the next commit's transaction open (`COMMIT AND CHAIN`), and opens
/// its own with one call that takes the locks, inserts the dedupe keys and probes the devices
/// (`pushtally_commit_open`). What is acknowledged is committed; a commit of receipts behind one of sessions runs
/// in the open transaction, not as a statement that commits on its own; a retry among the keys sends the
/// devices really touched to the probe again; and no connection goes back to the pool inside a transaction.
extension PostgresStoreTests {
    @Test func commitsBehindACommitOfSessionsRunInTheTransactionItLeftOpenAndNoConnectionIsLeftInOne() async throws {
        try await FreshStore.with(.postgres) { fresh in
            let (url, secret) = (fresh.database, fresh.secretPath)
            let store = try await PostgresStore(
                url: url, deviceSecretPath: secret, connectionTimeout: FreshStore.patientCommitTimeout,
                commitTimeout: FreshStore.patientCommitTimeout, writers: 1, rollupShard: 7)
            defer { store.closeInBackground() }
            // Devices are locked by their stored (keyed) ids.
            let gated = try #require(store.deviceHasher).hash("gated")
            // The push's sent_at read once, so a commit of its receipts alone would otherwise be one statement.
            _ = try await store.ingest([IncomingEvent(pushID: "p", kind: .display, deviceID: "r0")])
            try await TestPostgres.withConnection(to: PostgresURL(url)) { gate, logger in
                func waitForAWaitingLock() async throws {
                    while try await gate.query(
                        "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted", logger: logger
                    ).collect().isEmpty {
                        try await Task.sleep(for: .milliseconds(20))
                    }
                }
                // The first commit waits on its rollup shard's lock, the second on its device's.
                try await gate.query("SELECT pg_advisory_lock(hashtextextended('rollup-shard:7', 0))", logger: logger)
                try await gate.query("SELECT pg_advisory_lock(hashtextextended('device:' || \(gated), 0))", logger: logger)
                let first = IngestOutcome()
                store.ingest([.session(deviceID: "a", sessionID: "s1")]) { first.set($0) }
                try await waitForAWaitingLock()
                let second = IngestOutcome()
                store.ingest([.session(deviceID: "gated", sessionID: "s2")]) { second.set($0) }
                try await gate.query("SELECT pg_advisory_unlock(hashtextextended('rollup-shard:7', 0))", logger: logger)
                #expect(await first.value() == [false])
                try await waitForAWaitingLock()
                let third = IngestOutcome()
                store.ingest([IncomingEvent(pushID: "p", kind: .display, deviceID: "r1")]) { third.set($0) }
                try await gate.query("SELECT pg_advisory_unlock(hashtextextended('device:' || \(gated), 0))", logger: logger)
                #expect(await second.value() == [false])
                #expect(await third.value() == [false])
            }
            #expect(store.oneStatement.chainedTransactions == 2, "the second and third commits ran in transactions opened for them")
            #expect(store.oneStatement.commits.oneStatement == 0, "the receipts' commit ran in the open transaction")
            // A run that ends with a commit of sessions ends the transaction it opened before its connection goes back.
            #expect(try await store.ingest([.session(deviceID: "b", sessionID: "s3")]) == [false])
            try await TestPostgres.withConnection(to: PostgresURL(url)) { observer, logger in
                let counts = try await observer.query(
                    "SELECT count(*) FILTER (WHERE kind >= 2), count(*) FILTER (WHERE kind < 2) FROM events", logger: logger
                ).collect().first?.decode((Int, Int).self)
                #expect(counts.map { [$0.0, $0.1] } == [3, 2], "every acknowledged event is committed")
                // The run ends its transaction right after its last answer. The wait is bounded below the pool's idle
                // timeout (60 s), which would close a connection left in a transaction and hide it.
                var inTransaction = -1
                for _ in 0..<1500 where inTransaction != 0 {
                    inTransaction = try await observer.query(
                        """
                        SELECT count(*)::int FROM pg_stat_activity
                        WHERE datname = current_database() AND state LIKE 'idle in transaction%' AND pid <> pg_backend_pid()
                        """, logger: logger
                    ).collect().first?.decode(Int.self) ?? -1
                    if inTransaction != 0 { try await Task.sleep(for: .milliseconds(20)) }
                }
                #expect(inTransaction == 0, "a pooled connection was left in a transaction")
            }
            // The pool's connections are idle: a management write commits on whichever it is given.
            for index in 0..<8 { _ = try await store.createToken(role: .admin, label: "t\(index)") }
            #expect(try await store.listTokens().count == 8)
        }
    }

    @Test func aCommitWithARetryAmongItsKeysAttributesWhatItReallyTouches() async throws {
        try await FreshStore.with(.postgres) { fresh in
            let (url, secret) = (fresh.database, fresh.secretPath)
            let store = try await PostgresStore(
                url: url, deviceSecretPath: secret, connectionTimeout: FreshStore.patientCommitTimeout,
                commitTimeout: FreshStore.patientCommitTimeout, writers: 1)
            defer { store.closeInBackground() }
            let now = StoreConfiguration.systemClock()
            _ = try await store.ingest([
                IncomingEvent(pushID: "p", kind: .display, deviceID: "a", deviceTimeMillis: now - 900_000),
                IncomingEvent(pushID: "q", kind: .display, deviceID: "b", deviceTimeMillis: now - 900_000),
            ])
            let early = IncomingEvent.session(deviceID: "a", sessionID: "s1", deviceTimeMillis: now - 600_000)
            let other = IncomingEvent.session(deviceID: "b", sessionID: "s2", deviceTimeMillis: now - 600_000)
            #expect(try await store.ingest([early, other]) == [false, false])
            // Retries of both, beside a new conversion of device a: the commit's prediction (every key new) fails.
            let commit = [
                early, other,
                .conversion(deviceID: "a", name: "buy", valueMicros: 1_000_000, currency: "EUR", conversionID: "c1", deviceTimeMillis: now - 300_000),
            ]
            #expect(try await store.ingest(commit) == [true, true, false])
            let credits = try await store.textRows(
                "SELECT kind, receipt_id, duplicate, attribution IS NULL, attributed_push FROM events WHERE kind >= 2 ORDER BY id")
            let (session, conversion) = ("\(EventKind.session.rawValue)", "\(EventKind.conversion.rawValue)")
            #expect(
                credits == [
                    [session, "s1", "0", "0", "p"], [session, "s2", "0", "0", "q"],
                    [session, "s1", "1", "1", nil], [session, "s2", "1", "1", nil],
                    [conversion, "c1", "0", "0", "p"],
                ])
            let totals = try await store.outcomeTotals(fromMillis: nil, toMillis: nil)
            #expect((totals.sessions, totals.conversionsInfluenced) == (2, 1))
            try await store.rebuildRollups()
            #expect(try await store.outcomeTotals(fromMillis: nil, toMillis: nil) == totals)
        }
    }
}
