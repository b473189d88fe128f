import Foundation
import Logging
import NIOPosix
import PostgresNIO
import PushTallyPostgres

/// A real streaming standby of the tests' PostgreSQL server (`scripts/postgres standby`, pg_basebackup), of
/// its own name and port, so a test may pause or stop it without touching another test's.
public struct TestStandby: Sendable {
    public let name: String
    public let port: Int

    /// Copies the primary and starts streaming from it; every database on the primary (a test's own included)
    /// is on the standby too. Must be matched by ``drop()``.
    public static func start() async throws -> TestStandby {
        let standby = TestStandby(name: "pushtally_test_\(UUID().uuidString.prefix(8).lowercased())", port: try freePort())
        try await standby.script("standby", standby.name, String(standby.port))
        return standby
    }

    /// Runs `body` with a new standby and a new database on the primary, dropping both however `body` ends.
    public static func withStandbyAndDatabase(_ body: (TestStandby, String) async throws -> Void) async throws {
        let standby = try await start()
        do {
            try await TestPostgres.withDatabase { url in try await body(standby, url) }
        } catch {
            await standby.drop()
            throw error
        }
        await standby.drop()
    }

    /// The standby's copy of the primary database `primaryURL` names.
    public func url(of primaryURL: String) throws -> String {
        let primary = try PostgresURL(primaryURL)
        return "postgres://\(primary.username):\(primary.password ?? "")@\(primary.host):\(port)/\(primary.database)"
    }

    public func pauseReplay() async throws { try await script("pause-standby", name) }
    public func resumeReplay() async throws { try await script("resume-standby", name) }
    public func stop() async throws { try await script("stop-standby", name) }
    public func restart() async throws { try await script("standby", name, String(port)) }

    /// Stops and deletes the standby.
    public func drop() async {
        _ = try? await script("drop-standby", name)
    }

    /// Waits until the standby has replayed everything the primary had written when this was called (a guard of
    /// 120 s against a broken standby, not a timing check: replay on a machine busy with other suites takes
    /// its time).
    public func waitForCatchUp(primaryURL: String) async throws {
        guard let target = try await Self.scalar("SELECT pg_current_wal_lsn()::text", url: primaryURL) else {
            throw TestFailure("the primary has no WAL position")
        }
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            let caught = try? await Self.scalar(
                "SELECT (pg_last_wal_replay_lsn() >= '\(target)'::pg_lsn)::text", url: try url(of: primaryURL))
            if caught == "true" { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        let log = (try? String(contentsOfFile: "/var/log/postgresql/postgresql-15-\(name).log", encoding: .utf8)) ?? ""
        throw TestFailure(
            "standby \(name) did not replay up to \(target) within 120 s; its log ends: \(log.split(separator: "\n").suffix(8).joined(separator: "\n"))")
    }

    private func script(_ arguments: String...) async throws {
        let (status, output) = try await runProcess(
            PackageRoot.file("scripts/postgres").path, arguments, includingErrors: true)
        guard status == 0 else { throw TestFailure("scripts/postgres \(arguments.joined(separator: " ")) failed: \(output)") }
    }

    /// A port nothing listens on now: the kernel's pick for a socket bound to port 0.
    private static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestFailure("socket() failed") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw TestFailure("bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// One text value of `sql` on the database `url` names.
    public static func scalar(_ sql: String, url: String) async throws -> String? {
        let parsed = try PostgresURL(url)
        let logger = Logger(label: "pushtally.test-standby")
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(),
            configuration: PostgresConnection.Configuration(
                host: parsed.host, port: parsed.port, username: parsed.username, password: parsed.password,
                database: parsed.database, tls: .disable),
            id: 1, logger: logger)
        do {
            let value = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect().first?.decode(String?.self)
            try await connection.close()
            return value ?? nil
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
