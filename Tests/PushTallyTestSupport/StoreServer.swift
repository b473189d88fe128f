import Foundation

/// A real `pushtally serve` on a fresh store of one kind: a SQLite file in its folder, or a new PostgreSQL
/// database (with the device secret every collector of it needs). `arguments` name that store to the CLI.
public struct StoreServer: Sendable {
    public let server: ServerProcess
    /// Where the store lives (``FreshStore``): the server's folder and, on PostgreSQL, its database.
    public let fresh: FreshStore
    /// The `serve` flags it was started with, which ``startCollector(_:)`` repeats.
    public let extraArguments: [String]

    /// The PostgreSQL database's URL; `nil` on SQLite.
    public var postgres: String? { fresh.postgresURL }

    /// What `--database` gets.
    public var database: String { postgres ?? server.databasePath }

    /// `--database` (and `--device-secret` on PostgreSQL), for CLI commands on this store.
    public var arguments: [String] {
        ["--database", database] + (postgres == nil ? [] : ["--device-secret", fresh.secretPath])
    }

    /// Starts it; `extraArguments` are more `serve` flags.
    public static func start(_ kind: StoreKind, name: String, extraArguments: [String] = []) async throws -> StoreServer {
        let fresh = try await FreshStore.make(kind, name: name)
        let server: ServerProcess
        do {
            server = try ServerProcess(
                directory: fresh.directory, database: fresh.postgresURL,
                extraArguments: (kind == .postgres ? ["--device-secret", fresh.secretPath] : []) + extraArguments)
            try await server.start()
        } catch {
            await fresh.remove()
            throw error
        }
        return StoreServer(server: server, fresh: fresh, extraArguments: extraArguments)
    }

    /// Starts another `serve` on the same store with the same flags (its log in a folder `name` of this one's):
    /// a restart once the first has stopped, or a second collector beside it. The caller stops it; it prints
    /// no admin token, since the store has one already.
    public func startCollector(_ name: String) async throws -> ServerProcess {
        let collector = try ServerProcess(
            directory: server.directory.appendingPathComponent(name), database: database,
            extraArguments: (postgres == nil ? [] : ["--device-secret", fresh.secretPath]) + extraArguments)
        try await collector.start()
        return collector
    }

    /// Removes its files and drops its database.
    public func cleanUp() async {
        server.removeFiles()
        await fresh.remove()
    }
}
