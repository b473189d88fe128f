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
