import Foundation
import NIOSSL
import PostgresNIO
import PushTallyCore

/// A `postgres://user:password@host:port/database?sslmode=…` URL, as libpq and most tools take it.
public struct PostgresURL: Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    /// `disable` (the default, for a database on loopback or a private network), `prefer` or `require`.
    public var sslMode: String

    /// Whether `text` names a PostgreSQL database rather than a SQLite file.
    public static func matches(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// - Throws: ``StoreError/misconfigured(_:)`` naming what is wrong with the URL.
    public init(_ text: String) throws {
        guard Self.matches(text), let components = URLComponents(string: text), let host = components.host, !host.isEmpty
        else {
            throw StoreError.misconfigured("\(text) is not a postgres://user:password@host:port/database URL")
        }
        self.host = host
        self.port = components.port ?? 5432
        guard let user = components.percentEncodedUser?.removingPercentEncoding, !user.isEmpty else {
            throw StoreError.misconfigured("the database URL names no user (postgres://USER:password@host/database)")
        }
        self.username = user
        self.password = components.percentEncodedPassword?.removingPercentEncoding
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        self.database = path.isEmpty ? user : path
        let mode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
        guard ["disable", "prefer", "require"].contains(mode) else {
            throw StoreError.misconfigured("sslmode=\(mode) is not supported; use disable, prefer or require")
        }
        self.sslMode = mode
    }

    /// The URL without its password, for logs.
    public var description: String {
        "postgres://\(username)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)"
    }

    /// The URL without its password, for a command line that reads the password from `PGPASSWORD` (pg_dump, psql).
    public var withoutPassword: String {
        "postgres://\(username)@\(host):\(port)/\(database)"
    }

    /// One connection's settings, for the start-up work that must fail fast rather than wait out the pool's retries.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS =
            switch sslMode {
            case "require": .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case "prefer": .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            default: .disable
            }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        configuration.options.additionalStartupParameters = [("application_name", "pushtally")]
        return configuration
    }

    func clientConfiguration(maximumConnections: Int) throws -> PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS =
            switch sslMode {
            case "require": .require(.makeClientConfiguration())
            case "prefer": .prefer(.makeClientConfiguration())
            default: .disable
            }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        configuration.options.maximumConnections = maximumConnections
        // An acknowledgement means the commit is on disk: never let a server default of `off` weaken that.
        // A statement given up at its deadline has its connection closed, but a backend waiting on a lock
        // does not read its socket: checking the client every second ends it (and its uncommitted work)
        // within a second of the close, so nothing answered 503 commits later and no backend outlives its
        // request. PostgreSQL 14 or later.
        configuration.options.additionalStartupParameters = [
            ("synchronous_commit", "on"), ("application_name", "pushtally"), ("client_connection_check_interval", "1000"),
        ]
        return configuration
    }
}
