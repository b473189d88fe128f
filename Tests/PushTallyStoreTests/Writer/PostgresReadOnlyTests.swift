import Foundation
import PushTallyCore
@testable import PushTallyPostgres
import PushTallyTestSupport
import Testing

/// A database that cannot write (made read-only, or a standby named as the primary) is a `503` the client
/// retries, never an internal error; and once it can write again the collector writes again by itself: the
/// connections whose sessions began read-only are closed when they fail, not pooled again.
@Suite struct PostgresReadOnlyTests {
    @Test func aReadOnlyDatabaseIsUnavailableAndWritesResumeOnTheirOwn() async throws {
        try await TestPostgres.withDatabase { url in
            let name = try #require(url.split(separator: "/").last.map { String($0.split(separator: "?")[0]) })
            // A commit deadline, not a patient one: a statement sent on a connection whose backend was just
            // terminated can go unanswered, and the writer's watchdog is what ends it (a 503 too).
            let store = try await PostgresStore(
                url: url, deviceSecretPath: nil, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: .seconds(15))
            defer { store.closeInBackground() }
            let event = { (id: String) in IncomingEvent(pushID: "read-only", kind: .display, receiptID: id) }
            try await PostgresLockedTableTests.ingestEventually(store, event("before"))

            // As an operator (or a failover to a standby) would: every new session starts read-only, and the
            // collector's sessions are ended so its next ones are such sessions.
            try await TestPostgres.administer(#"ALTER DATABASE "\#(name)" SET default_transaction_read_only = on"#)
            try await TestPostgres.administer(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)' AND pid <> pg_backend_pid()")
            // The first attempts may meet the pool's ended sessions (unavailable too) before a read-only one.
            var refusals: [String] = []
            for attempt in 0..<40 where !refusals.contains(where: { $0.contains("read-only") }) {
                do {
                    _ = try await store.ingest([event("during-\(attempt)")])
                    Issue.record("a write to a read-only database was acknowledged")
                } catch WriterError.stalled {
                    refusals.append("stalled")
                } catch {
                    guard case StoreError.unavailable = error else {
                        Issue.record("a read-only database must be unavailable (503), not \(String(reflecting: error))")
                        break
                    }
                    refusals.append("\(error)")
                }
            }
            #expect(refusals.contains { $0.contains("read-only") }, "\(refusals)")

            try await TestPostgres.administer(#"ALTER DATABASE "\#(name)" RESET default_transaction_read_only"#)
            // No restart and no hand on the pool: the next writes find a session that can write. A few tries,
            // each closing a read-only session the pool still held.
            var resumed = false
            for _ in 0..<50 where !resumed {
                resumed = (try? await store.ingest([event("after")])) != nil
                if !resumed { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(resumed, "writes did not resume once the database could write")
            let stored = try await store.query("SELECT DISTINCT receipt_id FROM events WHERE push_id = 'read-only' ORDER BY receipt_id")
            #expect(try stored.map { try $0.decode(String.self) } == ["after", "before"])
        }
    }
}
