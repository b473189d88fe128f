import Foundation
import Logging
import NIOPosix
import PostgresNIO
import PushTallyPostgres

/// Fresh PostgreSQL databases for tests, on the server `PUSHTALLY_TEST_POSTGRES` names (scripts/test starts
/// one and sets it). A missing variable fails the test rather than skipping it: a suite that silently ran
/// against SQLite alone would claim what it never checked.
public enum TestPostgres {
    public struct NotConfigured: Error, CustomStringConvertible {
        public var description: String {
            "PUSHTALLY_TEST_POSTGRES is not set: run scripts/test, or export PUSHTALLY_TEST_POSTGRES=$(scripts/postgres)"
        }
    }

    /// The URL of the database tests connect to in order to create their own.
    public static func adminURL() throws -> PostgresURL {
        guard let text = ProcessInfo.processInfo.environment["PUSHTALLY_TEST_POSTGRES"], !text.isEmpty else {
            throw NotConfigured()
        }
        return try PostgresURL(text)
    }

    /// Tests run in parallel, and each database brings a collector's pool of connections: at most this many
    /// test databases exist at once, so the suite stays well inside the server's `max_connections` (100).
    private static let gate = Gate(permits: 6)

    /// Creates an empty database and returns its URL; every call must be matched by ``dropDatabase(_:)``.
    public static func createDatabase() async throws -> String {
        await gate.acquire()
        do {
            return try await makeDatabase()
        } catch {
            await gate.release()
            throw error
        }
    }

    private static func makeDatabase() async throws -> String {
        var url = try adminURL()
        let name = "pushtally_test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased())"
        try await withAdminConnection { connection, logger in
            try await connection.query("CREATE DATABASE \(unescaped: name)", logger: logger)
        }
        url.database = name
        return "postgres://\(url.username):\(url.password ?? "")@\(url.host):\(url.port)/\(name)"
    }

    /// Drops a database made by ``createDatabase()``, closing whatever connections are still open to it.
    /// Retried because a collector still running reconnects at once, and a connection that arrives between
    /// FORCE's terminations and the drop fails it ("being accessed by other users").
    public static func dropDatabase(_ urlText: String) async {
        guard let url = try? PostgresURL(urlText), url.database.hasPrefix("pushtally_test_") else { return }
        for attempt in 1...5 {
            do {
                try await withAdminConnection { connection, logger in
                    try await connection.query("DROP DATABASE IF EXISTS \(unescaped: url.database) WITH (FORCE)", logger: logger)
                }
                break
            } catch {
                if attempt == 5 { print("could not drop test database \(url.database): \(String(reflecting: error))") }
                try? await Task.sleep(for: .milliseconds(100 * attempt))
            }
        }
        await gate.release()
    }

    /// Runs one statement as the tests' administrator (on the database `PUSHTALLY_TEST_POSTGRES` names).
    public static func administer(_ sql: String) async throws {
        try await withAdminConnection { connection, logger in
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        }
    }

    /// Runs `body` with a fresh database's URL and drops the database afterwards.
    public static func withDatabase<T>(_ body: (String) async throws -> T) async throws -> T {
        let url = try await createDatabase()
        do {
            let result = try await body(url)
            await dropDatabase(url)
            return result
        } catch {
            await dropDatabase(url)
            throw error
        }
    }

    private static func withAdminConnection(_ body: (PostgresConnection, Logger) async throws -> Void) async throws {
        try await withConnection(to: adminURL(), body)
    }

    /// One connection of its own to `url` (a session: what it sets, prepares or counts stays with it), closed after `body`.
    public static func withConnection(to url: PostgresURL, _ body: (PostgresConnection, Logger) async throws -> Void) async throws {
        let logger = Logger(label: "pushtally.test-postgres")
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(),
            configuration: PostgresConnection.Configuration(
                host: url.host, port: url.port, username: url.username, password: url.password, database: url.database,
                tls: .disable),
            id: 1, logger: logger)
        do {
            try await body(connection, logger)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

/// A counting semaphore for tasks: waiters queue in order and suspend rather than block a thread.
actor Gate {
    private var available: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(permits: Int) {
        available = permits
    }

    func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        if waiters.isEmpty {
            available += 1
        } else {
            waiters.removeFirst().resume()
        }
    }
}
