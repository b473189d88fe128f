import Foundation
import PostgresNIO
import PushTallyCore
@testable import PushTallyPostgres
import PushTallyTestSupport
import Testing

/// A commit the collector gives up at its deadline (another session holds a lock on `events`) leaves no backend
/// of the collector waiting on that lock, and the receipt answered 503 is not stored when the lock goes:
/// the abandoned statement ends with its session, not whenever the lock is released.
@Suite struct PostgresLockedTableTests {
    @Test func aCommitGivenUpAtItsDeadlineLeavesNoBackendWaiting() async throws {
        try await TestPostgres.withDatabase { url in
            let parsed = try PostgresURL(url)
            let store = try await PostgresStore(
                url: url, deviceSecretPath: nil, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: .seconds(2))
            defer { store.closeInBackground() }
            let event = { (id: String) in IncomingEvent(pushID: "locked", kind: .display, receiptID: id) }
            // Outside the lock a commit may still miss a 2 s deadline on a busy machine: tried until stored.
            try await Self.ingestEventually(store, event("before"))

            try await TestPostgres.withConnection(to: parsed) { locker, logger in
                try await locker.query("BEGIN", logger: logger)
                try await locker.query("LOCK TABLE events IN ACCESS EXCLUSIVE MODE", logger: logger)

                await #expect(throws: WriterError.stalled, "a commit behind the lock is given up at its deadline") {
                    _ = try await store.ingest([event("behind-the-lock")])
                }

                // The given-up statement's backend notices its closed connection and ends; polled, since how
                // soon depends on the machine (PostgreSQL checks every second).
                var waiting = -1
                for _ in 0..<600 where waiting != 0 {
                    waiting = try await Self.collectorBackendsWaitingOnLocks(database: parsed.database)
                    if waiting != 0 { try await Task.sleep(for: .milliseconds(100)) }
                }
                #expect(waiting == 0, "backends of the collector still waiting on the lock")
                try await locker.query("COMMIT", logger: logger)
            }

            try await Self.ingestEventually(store, event("after"))
            let stored = try await store.query("SELECT receipt_id FROM events WHERE push_id = 'locked' ORDER BY receipt_id")
            #expect(try stored.map { try $0.decode(String.self) } == ["after", "before"], "the receipt answered 503 was stored later")
        }
    }

    static func ingestEventually(_ store: PostgresStore, _ event: IncomingEvent) async throws {
        for attempt in 1...20 {
            do {
                _ = try await store.ingest([event])
                return
            } catch where attempt < 20 && (error is WriterError || error is StoreError) {
                continue
            }
        }
    }

    /// Backends of the collector (its `application_name`) on `database` waiting for a lock, read from a
    /// session of the test's own (a fresh snapshot of `pg_stat_activity` each time).
    static func collectorBackendsWaitingOnLocks(database: String) async throws -> Int {
        var count = 0
        try await TestPostgres.withConnection(to: TestPostgres.adminURL()) { connection, logger in
            let rows = try await connection.query(
                """
                SELECT count(*)::int FROM pg_stat_activity
                WHERE datname = \(database) AND application_name = 'pushtally' AND wait_event_type = 'Lock'
                """, logger: logger)
            for try await value in rows.decode(Int.self) { count = value }
        }
        return count
    }
}
