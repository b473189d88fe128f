import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import PushTallyCore
@testable import PushTallyPostgres
import PushTallyTestSupport
import Testing

/// A commit's confirmation is awaited until its answer or its connection's close, whichever comes first: a
/// statement PostgresNIO dropped (written after the connection's handlers were gone) never answers, and only the
/// close can end its wait. A promise nobody completes stands for that statement here.
@Suite struct ConnectionCloseWatchTests {
    @Test func anAnswerThatNeverComesEndsWhenItsConnectionCloses() async throws {
        try await TestPostgres.withDatabase { url in
            try await PostgresConnectionLossTests.boundedWork {
                try await Self.withConnection(url) { connection in
                    let dropped = connection.closeFuture.eventLoop.makePromise(of: Int.self)
                    defer { dropped.succeed(0) }  // A promise left uncompleted stops a debug build.
                    let future = dropped.futureResult
                    let waited = Task { try await ConnectionCloseWatch.shared.answer(future, on: connection) }
                    try await connection.close()
                    await #expect(throws: StoreError.self, "the close ends the wait") { _ = try await waited.value }

                    let never = connection.closeFuture.eventLoop.makePromise(of: Int.self)
                    defer { never.succeed(0) }
                    await #expect(throws: StoreError.self, "a connection already closed ends it at once") {
                        _ = try await ConnectionCloseWatch.shared.answer(never.futureResult, on: connection)
                    }
                }
            }
        }
    }

    @Test func anAnswerThatComesIsReturned() async throws {
        try await TestPostgres.withDatabase { url in
            try await PostgresConnectionLossTests.boundedWork {
                try await Self.withConnection(url) { connection in
                    let answered = connection.closeFuture.eventLoop.makePromise(of: Int.self)
                    answered.succeed(7)
                    #expect(try await ConnectionCloseWatch.shared.answer(answered.futureResult, on: connection) == 7)
                    let logger = Logger(label: "test.close-watch")
                    let probe: EventLoopFuture<PostgresQueryResult> = connection.query("SELECT 42", logger: logger)
                    let rows = try await ConnectionCloseWatch.shared.answer(probe, on: connection).rows
                    #expect(try rows.first?.decode(Int.self) == 42)
                }
            }
        }
    }

    /// A connection of its own, closed after `body` however it ends (a connection dropped open stops a debug build).
    private static func withConnection(_ url: String, _ body: (PostgresConnection) async throws -> Void) async throws {
        let url = try PostgresURL(url)
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(),
            configuration: PostgresConnection.Configuration(
                host: url.host, port: url.port, username: url.username, password: url.password, database: url.database, tls: .disable),
            id: 1, logger: Logger(label: "test.close-watch"))
        do {
            try await body(connection)
        } catch {
            try? await connection.close()
            throw error
        }
        if !connection.isClosed { try await connection.close() }
    }
}
