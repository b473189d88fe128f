import Logging
import PostgresNIO
import PushTallyCore

extension PostgresStore: ReadReplica {
    /// Opens a streaming standby of a collectors' database for report reads: no migration (a standby cannot
    /// be written; it follows its primary's schema), no device secret (reports never see a device id), and a
    /// short connection deadline, so a replica gone away turns reports to the primary within a second.
    public static func openReadReplica(
        url: String, configuration: StoreConfiguration = StoreConfiguration(), maximumConnections: Int = 4,
        logger: Logger = Logger(label: "pushtally.postgres.replica")
    ) async throws -> PostgresStore {
        try await PostgresStore(
            url: url, configuration: configuration, deviceSecretPath: nil, maximumConnections: maximumConnections,
            connectionTimeout: .seconds(1), migrates: false, logger: logger)
    }

    /// Replay lag of a standby: 0 while it streams from its primary and has replayed all it received; else the
    /// time since its last replayed commit (a standby that lost its primary cannot know how far behind it is,
    /// so it is judged by how old its data is). 0 for a database that is not a standby.
    /// - Throws: ``StoreError/misconfigured(_:)`` while it holds no PushTally schema: nothing to read yet.
    public func replicationLagSeconds() async throws -> Double {
        guard let (hasSchema, lag) = try await fetch(Queries.SelectReplicationLag()).first else { return 0 }
        guard hasSchema else { throw StoreError.misconfigured("\(url) holds no PushTally data yet") }
        return lag
    }
}
