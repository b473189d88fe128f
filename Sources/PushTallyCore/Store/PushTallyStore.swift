/// What the HTTP server and the CLI need from storage. SQLite is the embedded default; the narrow surface
/// is what lets a PostgreSQL store stand in for deployments with many collectors.
public protocol PushTallyStore: Sendable {
    /// Stores events durably; per event, whether it was a recognised retry. Returns after commit.
    func ingest(_ events: [IncomingEvent]) async throws -> [Bool]
    /// The same, for event-loop code: `completion` runs once, after commit or with the error, on any thread.
    func ingest(_ events: [IncomingEvent], completion: @escaping @Sendable (Result<[Bool], any Error>) -> Void)
    /// Registers a push or replaces its totals.
    func register(_ push: PushRegistration) async throws -> RegistrationOutcome
    /// Registers many pushes; each succeeds or fails alone.
    func register(_ pushes: [PushRegistration]) async throws -> [Result<RegistrationOutcome, StoreError>]
    /// Adds one parallel sender's counts, idempotent by batch id.
    func addSends(_ batch: SendBatch) async throws
    /// Pushes with their figures, read from rollups.
    func pushFigures(_ filter: ReportFilter) async throws -> [PushFigures]
    /// 15-minute rollup counts over the pushes `filter` selects, within its event-time range.
    func bucketCounts(_ filter: ReportFilter) async throws -> [BucketCount]
    /// Receipts and actions per app or OS version over the pushes `filter` selects.
    func versionCounts(_ filter: ReportFilter, dimension: VersionDimension) async throws -> [VersionCount]
    /// The clock and maturity window reports are judged by.
    var configuration: StoreConfiguration { get }
    /// The role of a bearer token, `nil` when unknown or revoked.
    func role(ofToken token: String) async throws -> Role?
    func createToken(role: Role, label: String?) async throws -> (token: String, info: TokenInfo)
    func hasActiveTokens() async throws -> Bool
    /// Deletes raw events received before the cutoff, folding their counts into the ledger.
    @discardableResult
    func prune(receivedBefore cutoffMillis: Int64, batchSize: Int) async throws -> Int
    /// Whether a write would succeed now.
    func isWritable() async -> Bool
    /// Events waiting for the writer.
    var queuedEvents: Int { get }
    /// Commits what was acknowledged and stops taking writes.
    func close()
}

extension SQLiteStore: PushTallyStore {}
