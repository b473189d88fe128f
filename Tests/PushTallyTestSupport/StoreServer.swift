import Foundation

/// A real `pushtally serve` on a fresh store of one kind: a SQLite file in its folder, or a new PostgreSQL
/// database (with the device secret every collector of it needs). `arguments` name that store to the CLI.
public struct StoreServer: Sendable {
    public let server: ServerProcess
    /// The PostgreSQL database's URL; `nil` on SQLite.
    public let postgres: String?

    /// What `--database` gets.
    public var database: String { postgres ?? server.databasePath }

    /// `--database` (and `--device-secret` on PostgreSQL), for CLI commands on this store.
    public var arguments: [String] {
        ["--database", database] + (postgres == nil ? [] : ["--device-secret", secretPath])
    }

    var secretPath: String { server.directory.appendingPathComponent("device.secret").path }

    /// Starts it.
    public static func start(_ kind: StoreKind, name: String) async throws -> StoreServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-\(name)-\(UUID().uuidString)")
        let postgres = kind == .postgres ? try await TestPostgres.createDatabase() : nil
        let server = try ServerProcess(
            directory: directory, database: postgres,
            extraArguments: postgres == nil ? [] : ["--device-secret", directory.appendingPathComponent("device.secret").path])
        try server.start()
        return StoreServer(server: server, postgres: postgres)
    }

    /// Removes its files and drops its database.
    public func cleanUp() async {
        server.removeFiles()
        if let postgres { await TestPostgres.dropDatabase(postgres) }
    }
}
