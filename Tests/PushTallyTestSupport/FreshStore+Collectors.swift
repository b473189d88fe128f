import PushTallyPostgres

extension FreshStore {
    /// Two collectors of this PostgreSQL database, on rollup shards 1 and 2 and sharing the device secret, as two
    /// `serve` processes beside each other write one database (theirs drawn at random); both are closed after
    /// `body`.
    public func withTwoCollectors<T>(
        writers: Int = 1, commitTimeout: Duration = FreshStore.patientCommitTimeout,
        _ body: (_ first: PostgresStore, _ second: PostgresStore) async throws -> T
    ) async throws -> T {
        precondition(kind == .postgres, "rollup shards are PostgreSQL's")
        let database = self.database
        let first = try await PostgresStore(
            url: database, deviceSecretPath: secretPath, connectionTimeout: commitTimeout, commitTimeout: commitTimeout, writers: writers, rollupShard: 1)
        defer { first.closeInBackground() }
        let second = try await PostgresStore(
            url: database, deviceSecretPath: secretPath, connectionTimeout: commitTimeout, commitTimeout: commitTimeout, writers: writers, rollupShard: 2)
        defer { second.closeInBackground() }
        return try await body(first, second)
    }
}
