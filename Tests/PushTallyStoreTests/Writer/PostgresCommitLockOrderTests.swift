import Foundation
import PostgresNIO
import PushTallyCore
@testable import PushTallyPostgres
import PushTallyTestSupport
import Testing

/// Group commits that share rollup rows, run at once from several connections on PostgreSQL, take turns under
/// their rollup shard's lock (``RollupShardLockSchema``) rather than counting on the order PostgreSQL runs a
/// statement's `WITH` clauses in: none fails as a deadlock (the store's retry is bypassed here), and every
/// figure is exact.
@Suite struct PostgresCommitLockOrderTests {
    /// Deadlocks seen, from every connection.
    final class Tally: @unchecked Sendable {
        // Guards the counts.
        private let lock = NSLock()
        private var counts = (deadlocks: 0, oneStatement: 0, transactions: 0)

        var deadlocks: Int { lock.withLock { counts.deadlocks } }
        var oneStatement: Int { lock.withLock { counts.oneStatement } }
        var transactions: Int { lock.withLock { counts.transactions } }
        func deadlock() { lock.withLock { counts.deadlocks += 1 } }
        func committed(inOneStatement: Bool) {
            lock.withLock { if inOneStatement { counts.oneStatement += 1 } else { counts.transactions += 1 } }
        }
    }

    @Test func conflictingCommitsFromSeveralConnectionsNeitherDeadlockNorMiscount() async throws {
        try await FreshStore.with(.postgres) { fresh in
            let (url, secret) = (fresh.database, fresh.secretPath)
            let store = try await PostgresStore(url: url, deviceSecretPath: secret, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout, writers: 1)
            defer { store.closeInBackground() }
            let postgresURL = try PostgresURL(url)
            let pushes = (0..<8).map { "p\($0)" }
            let (connections, rounds) = (4, 20)
            let tally = Tally()
            let receivedAt = StoreConfiguration.systemClock()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<connections {
                    group.addTask {
                        try await TestPostgres.withConnection(to: postgresURL) { connection, logger in
                            let memory = OneStatementState()
                            for round in 0..<rounds {
                                // Every commit writes the same rows of the same shard, half of them in the opposite order.
                                let order = worker.isMultiple(of: 2) ? pushes : pushes.reversed()
                                let events = order.flatMap { push in
                                    let device = "w\(worker)-r\(round)-\(push)"
                                    return [
                                        IncomingEvent(pushID: push, kind: .display, deviceID: device),
                                        IncomingEvent(pushID: push, kind: .action, action: "open", deviceID: device),
                                    ].map { StoredEvent($0, receivedAt: receivedAt) }
                                }
                                try await Self.commit(
                                    events, oneStatementFirst: round.isMultiple(of: 2), memory: memory, tally: tally,
                                    on: connection, logger: logger)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(tally.deadlocks == 0)
            #expect(tally.oneStatement > 0 && tally.transactions > 0, "both paths ran")
            #expect(tally.oneStatement + tally.transactions == connections * rounds, "every commit went through")
            let figures = try await store.pushFigures()
            #expect(figures.map(\.pushID).sorted() == pushes)
            for push in figures {
                #expect(push.funnel.displayed == Int64(connections * rounds), "\(push.pushID)")
                #expect(push.funnel.opened == Int64(connections * rounds), "\(push.pushID)")
                #expect(push.funnel.duplicates == 0, "\(push.pushID)")
            }
            try await store.rebuildRollups()
            #expect(try await store.pushFigures() == figures)
        }
    }

    /// Commits `events` in one statement (when its predictions hold and `oneStatementFirst`) or in a transaction,
    /// as the store does but without its retry: a deadlock is counted, and the commit is then retried.
    private static func commit(
        _ events: [StoredEvent], oneStatementFirst: Bool, memory: OneStatementState, tally: Tally,
        on connection: PostgresConnection, logger: Logger
    ) async throws {
        while true {
            do {
                if oneStatementFirst,
                    try await PostgresOneStatementCommit.store(
                        events, maturityWindow: 60_000, shard: 3, state: memory, subscriptions: nil, names: NameFold(),
                        on: connection, logger: logger) != nil
                {
                    return tally.committed(inOneStatement: true)
                }
                try await connection.query("BEGIN", logger: logger)
                _ = try await PostgresEventWriter.store(
                    events, maturityWindow: 60_000, attributionWindows: AttributionWindows(), shard: 3, memory: memory,
                    names: NameFold(), on: connection, logger: logger)
                try await connection.query("COMMIT", logger: logger)
                return tally.committed(inOneStatement: false)
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "40P01" {
                tally.deadlock()
                _ = try? await connection.query("ROLLBACK", logger: logger)
            }
        }
    }

    @Test func aCommitHoldsItsRollupShardExclusivelyAfterItsOtherLocks() async throws {
        try await TestPostgres.withDatabase { url in
            let store = try await PostgresStore(url: url, deviceSecretPath: nil, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout)
            store.closeInBackground()
            try await TestPostgres.withConnection(to: PostgresURL(url)) { connection, logger in
                try await connection.query("BEGIN", logger: logger)
                try await PushLocks.lock(["p1"], mode: .shared, devices: ["d1"], rollupShard: 5, on: connection, logger: logger)
                let held = try await PushLockTests.held(on: connection, logger: logger)
                #expect(held[try await PushLockTests.key("rollup-shard:5", on: connection, logger: logger)] == "ExclusiveLock")
                #expect(held[try await PushLockTests.key("p1", on: connection, logger: logger)] == "ShareLock")
                #expect(held.count == 4, "the push, every device, the device and the shard")
                try await connection.query("ROLLBACK", logger: logger)
                // The one-statement guard takes the same lock.
                try await connection.query("BEGIN", logger: logger)
                try await connection.query(
                    """
                    SELECT pushtally_ingest_guard('{p1}'::text[], '{}'::text[], true, '{}'::text[], '{}'::text[], '{}'::text[],
                        '{}'::boolean[], '{}'::bigint[], '{}'::text[], '{}'::bigint[], 4, 7)
                    """, logger: logger)
                let guarded = try await PushLockTests.held(on: connection, logger: logger)
                #expect(guarded[try await PushLockTests.key("rollup-shard:7", on: connection, logger: logger)] == "ExclusiveLock")
                try await connection.query("ROLLBACK", logger: logger)
            }
        }
    }

    /// A guarded statement's parts write typed rows (NULLs included, which a `VALUES` list outside an `INSERT`
    /// would read as text) only after the guard answered, and nothing when it fails.
    @Test func aGuardedStatementWritesItsRowsOnlyAfterItsGuard() async throws {
        try await TestPostgres.withDatabase { url in
            try await TestPostgres.withConnection(to: PostgresURL(url)) { connection, logger in
                try await connection.query("CREATE TABLE guarded (a BIGINT NOT NULL, b TEXT, c BIGINT)", logger: logger)
                let rows: [(Int64, String?, Int64?)] = [(1, nil, nil), (2, "two", nil)]
                func part() -> ValuesPart {
                    ValuesPart(rows, columns: 3, head: "INSERT INTO guarded (a, b, c)") { row, sql in
                        [sql.bind(row.0), sql.bind(row.1), sql.bind(row.2)]
                    }
                }
                let failing = try #require(SQLBuilder.guarded([part()]) { $0.append("(SELECT 1 / 0) = 1") })
                await #expect(throws: PSQLError.self) { try await connection.run(failing, logger: logger) }
                let passing = try #require(SQLBuilder.guarded([part()]) { $0.append("true") })
                try await connection.run(passing, logger: logger)
                var stored: [String] = []
                let answer = try await connection.query("SELECT a, b, c FROM guarded ORDER BY a", logger: logger)
                for try await (a, b, c) in answer.decode((Int64, String?, Int64?).self) { stored.append("\(a) \(b ?? "-") \(c.map(String.init) ?? "-")") }
                #expect(stored == ["1 - -", "2 two -"], "the failed guard wrote nothing; the passing one wrote both rows")
            }
        }
    }
}
