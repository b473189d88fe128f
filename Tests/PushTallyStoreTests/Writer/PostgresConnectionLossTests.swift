import Foundation
import Logging
import PushTallyCore
@testable import PushTallyPostgres
import PushTallyTestSupport
import Testing

/// A connection the server closes under a transaction: the transaction fails at once, as unavailable, instead
/// of waiting for good on what it sends after the loss. Each answer is held to 5 s; a statement that is never
/// answered (the fault these reproduce) fails its test after a minute (``boundedWork(_:)``), however long the
/// wait for a test database in a full parallel run was.
@Suite struct PostgresConnectionLossTests {
    /// Runs `work` in a task of its own and fails once a minute passes without its end: a hang here is the
    /// fault, and must fail the test rather than hold the suite.
    static func boundedWork(_ work: @escaping @Sendable () async throws -> Void) async throws {
        try await DetachedRace.run(timeout: .seconds(60), onDeadline: { TestFailure("never answered: the connection loss hung") }, work)
    }

    /// The ingest hang after `pg_terminate_backend`: the transaction path ran `ROLLBACK` on the connection the
    /// server had just closed. PostgresNIO 1.33 writes a statement into the connection's channel with no promise
    /// for the write; once the closed channel's handlers are gone the write finds none and the statement's own
    /// promise is dropped, never completed. The commit waited for good (a release build; a debug build stops
    /// on the leaked promise), holding the writer and its queue with it.
    ///
    /// The server's error reaches the transaction before the channel's teardown ends, so whether the
    /// `ROLLBACK` came before or after was a race; waiting here for the connection to be closed makes it
    /// certain.
    @Test func aTransactionWhoseBackendIsTerminatedFailsAtOnce() async throws {
        try await TestPostgres.withDatabase { url in try await Self.boundedWork {
            let store = try await PostgresStore(url: url, deviceSecretPath: nil)
            defer { store.closeInBackground() }
            let logger = Logger(label: "test.connection-loss")
            let started = ContinuousClock.now
            let error = await #expect(throws: (any Error).self) {
                try await PostgresStore.transaction(store.client, timeout: .seconds(5), logger: logger) { connection in
                    do {
                        try await connection.run("SELECT pg_terminate_backend(pg_backend_pid())", logger: logger)
                    } catch {
                        try? await connection.closeFuture.get()
                        throw error
                    }
                }
            }
            #expect(ContinuousClock.now - started < .seconds(5))
            #expect(error.map { "\($0)".contains("unavailable") } == true, "\(error.map { "\($0)" } ?? "")")
            // The pool replaced the connection: the store goes on.
            #expect(await store.isWritable())
        } }
    }
}

extension PostgresConnectionLossTests {
    /// A statement asked of a connection that has closed (a pooled connection whose backend was terminated while
    /// idle, handed out before the pool heard of it) fails at once. PostgresNIO would drop it unanswered.
    @Test func aStatementOnAClosedConnectionFailsAtOnce() async throws {
        try await TestPostgres.withDatabase { url in try await Self.boundedWork {
            let store = try await PostgresStore(url: url, deviceSecretPath: nil)
            defer { store.closeInBackground() }
            let logger = Logger(label: "test.connection-loss")
            let started = ContinuousClock.now
            let error = await #expect(throws: (any Error).self) {
                try await PostgresStore.withConnection(store.client, timeout: .seconds(5)) { connection in
                    _ = try? await connection.run("SELECT pg_terminate_backend(pg_backend_pid())", logger: logger)
                    try? await connection.closeFuture.get()
                    return try await connection.run("SELECT 1", logger: logger).count
                }
            }
            #expect(ContinuousClock.now - started < .seconds(5))
            #expect(error.map { "\($0)".contains("closed") } == true, "\(error.map { "\($0)" } ?? "")")
        } }
    }
}
