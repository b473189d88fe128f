import Foundation
import PostgresNIO
import PushTallyCore
import PushTallyPostgres
import PushTallyTestSupport
import Testing

/// A write is acknowledged only once PostgreSQL committed it. A statement outside `BEGIN` commits at the Sync
/// after it, while postgres-nio reports the statement done at its CommandComplete: a commit that then fails
/// (here a deferred constraint trigger raising at commit time; in production a backend terminated in between)
/// must be an error, never an acknowledgement of rows that were rolled back.
extension PostgresStoreTests {
    @Test func aReceiptWhoseCommitFailsAtItsEndIsNotAcknowledged() async throws {
        try await FreshStore.with(.postgres) { fresh in
            let (url, secret) = (fresh.database, fresh.secretPath)
            let store = try await PostgresStore(url: url, deviceSecretPath: secret, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout, writers: 1)
            defer { store.closeInBackground() }
            _ = try await store.ingest([IncomingEvent(pushID: "doomed", kind: .display, deviceID: "a")])
            #expect(store.oneStatement.commits == (0, 1), "the push's sent_at is read, so its next commit is one statement")
            try await failCommits(url, on: "dedupe", when: "NEW.push_id = 'doomed'")

            await #expect(throws: StoreError.self, "the one-statement commit rolled back at its Sync") {
                try await store.ingest([IncomingEvent(pushID: "doomed", kind: .display, deviceID: "b", receiptID: "one")])
            }
            #expect(store.oneStatement.commits == (0, 1))
            await #expect(throws: (any Error).self, "the transaction's COMMIT rolled back") {
                try await store.ingest([
                    IncomingEvent(pushID: "doomed", kind: .display, deviceID: "b", receiptID: "one"),
                    .session(deviceID: "b", sessionID: "s"),
                ])
            }
            #expect(try await store.rawEventCount() == 1, "nothing of the failed commits is stored")

            try await allowCommits(url, on: "dedupe")
            #expect(try await store.ingest([IncomingEvent(pushID: "doomed", kind: .display, deviceID: "b", receiptID: "one")]) == [false])
            #expect(try await store.rawEventCount() == 2)
        }
    }

    /// Commits queued behind one that fails at its end (while its statement waits on a lock the test holds) go
    /// on the connection the failure closes or on a new one: the failed commit is never acknowledged, and what
    /// the commits behind it acknowledge is stored.
    /// - Parameter receipts: the receipts of each of the five ingests queued behind (300: a large commit).
    @Test(arguments: [1, 300]) func commitsQueuedBehindOneThatFailsAtItsEndAcknowledgeOnlyWhatIsStored(receipts: Int) async throws {
        try await FreshStore.with(.postgres) { fresh in
            let (url, secret) = (fresh.database, fresh.secretPath)
            let store = try await PostgresStore(url: url, deviceSecretPath: secret, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout, writers: 1)
            defer { store.closeInBackground() }
            // Each push's sent_at read once, so the commits below are one statement each.
            _ = try await store.ingest([IncomingEvent(pushID: "doomed", kind: .display), IncomingEvent(pushID: "fine", kind: .display)])
            try await failCommits(url, on: "dedupe", when: "NEW.push_id = 'doomed'")
            try await TestPostgres.withConnection(to: PostgresURL(url)) { gate, logger in
                // The doomed commit's statement waits on this lock, so the next commit surely queues behind it.
                try await gate.query(
                    """
                    CREATE FUNCTION wait_for_gate() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN PERFORM pg_advisory_xact_lock(4242); RETURN NEW; END $$
                    """, logger: logger)
                try await gate.query(
                    "CREATE TRIGGER wait_for_gate BEFORE INSERT ON dedupe FOR EACH ROW WHEN (NEW.push_id = 'doomed') EXECUTE FUNCTION wait_for_gate()",
                    logger: logger)
                try await gate.query("SELECT pg_advisory_lock(4242)", logger: logger)
                let doomed = IngestOutcome()
                store.ingest([IncomingEvent(pushID: "doomed", kind: .display, deviceID: "a", receiptID: "doomed")]) { doomed.set($0) }
                while try await gate.query(
                    "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = 4242 AND NOT granted", logger: logger
                ).collect().isEmpty {
                    try await Task.sleep(for: .milliseconds(20))
                }
                let behind = (0..<5).map { index in
                    let outcome = IngestOutcome()
                    let batch = (0..<receipts).map { n in
                        IncomingEvent(pushID: "fine", kind: .display, deviceID: "b\(index)", receiptID: n == 0 ? "fine\(index)" : "fine\(index)-\(n)")
                    }
                    store.ingest(batch) { outcome.set($0) }
                    return outcome
                }
                try await gate.query("SELECT pg_advisory_unlock(4242)", logger: logger)
                #expect(await doomed.value() == nil, "the doomed commit was acknowledged")
                var acknowledged: Set<String> = []
                for (index, outcome) in behind.enumerated() where await outcome.value() != nil { acknowledged.insert("fine\(index)") }
                let stored = Set(try await store.textRows("SELECT receipt_id FROM events WHERE receipt_id IS NOT NULL").compactMap { $0[0] })
                #expect(!stored.contains("doomed"))
                #expect(acknowledged.isSubset(of: stored), "acknowledged but not stored: \(acknowledged.subtracting(stored).sorted())")
            }
            try await allowCommits(url, on: "dedupe")
            #expect(try await store.ingest([IncomingEvent(pushID: "doomed", kind: .display, deviceID: "a", receiptID: "doomed")]) == [false])
        }
    }

    @Test func aManagementWriteWhoseCommitFailsAtItsEndIsAnError() async throws {
        try await TestPostgres.withDatabase { url in
            let store = try await PostgresStore(url: url, deviceSecretPath: nil, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout)
            defer { store.closeInBackground() }
            try await failCommits(url, on: "tokens", when: "NEW.label = 'doomed'")
            await #expect(throws: StoreError.self, "a token that was never stored is never handed out") {
                try await store.createToken(role: .admin, label: "doomed")
            }
            #expect(try await store.listTokens().isEmpty)
            _ = try await store.createToken(role: .admin, label: "kept")
            #expect(try await store.listTokens().map(\.label) == ["kept"])
        }
    }

    /// Makes every commit that inserted a row of `table` matching `condition` fail at its end: a deferred
    /// constraint trigger runs after the statement's CommandComplete, when the transaction commits.
    private func failCommits(_ url: String, on table: String, when condition: String) async throws {
        try await TestPostgres.withConnection(to: PostgresURL(url)) { connection, logger in
            try await connection.query(
                """
                CREATE FUNCTION refuse_commit() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'refused at commit'; END $$
                """, logger: logger)
            try await connection.query(
                PostgresQuery(
                    unsafeSQL: """
                        CREATE CONSTRAINT TRIGGER refuse_commit AFTER INSERT ON \(table) DEFERRABLE INITIALLY DEFERRED
                        FOR EACH ROW WHEN (\(condition)) EXECUTE FUNCTION refuse_commit()
                        """), logger: logger)
            // Sent after the server's ReadyForQuery, so after the trigger's own commit.
            try await connection.query("SELECT 1", logger: logger)
        }
    }

    private func allowCommits(_ url: String, on table: String) async throws {
        try await TestPostgres.withConnection(to: PostgresURL(url)) { connection, logger in
            try await connection.query(PostgresQuery(unsafeSQL: "DROP TRIGGER refuse_commit ON \(table)"), logger: logger)
            try await connection.query("SELECT 1", logger: logger)
        }
    }
}
