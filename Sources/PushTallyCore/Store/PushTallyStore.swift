import Foundation

/// What the HTTP server and the CLI need from storage. SQLite is the embedded default; PostgreSQL
/// (`PushTallyPostgres`) serves deployments with many collectors. Both give the same answers to every call:
/// one test suite runs against each.
public protocol PushTallyStore: Sendable {
    /// Where the data lives, for logs and messages (a file path, or a URL without its password).
    var location: String { get }
    /// Stores events durably; per event, whether it was a recognised retry. Returns after commit.
    func ingest(_ events: [IncomingEvent]) async throws -> [Bool]
    /// The same, for event-loop code: `completion` runs once, after commit or with the error, on any thread.
    func ingest(_ events: [IncomingEvent], completion: @escaping @Sendable (Result<[Bool], any Error>) -> Void)
    /// Registers a push or replaces its totals.
    @discardableResult
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
    /// Creates a token; the returned secret is never stored and never shown again.
    func createToken(role: Role, label: String?) async throws -> (token: String, info: TokenInfo)
    func hasActiveTokens() async throws -> Bool
    /// Every token, revoked ones included, oldest first.
    func listTokens() async throws -> [TokenInfo]
    /// Revokes a token by id (or by the full token); false when no active token matched.
    func revokeToken(_ idOrToken: String) async throws -> Bool
    /// Creates an admin token when no active one exists, once even when several collectors start together.
    func bootstrapAdminToken(label: String) async throws -> String?
    /// Deletes raw events received before the cutoff, folding their counts into the ledger.
    @discardableResult
    func prune(receivedBefore cutoffMillis: Int64, batchSize: Int) async throws -> Int
    /// Deletes one device's raw events (folding their counts into the ledger) and its dedupe keys.
    @discardableResult
    func forget(deviceID: String) async throws -> Int
    /// Recomputes every rollup from the ledger plus the raw events.
    func rebuildRollups() async throws
    /// Raw events still stored (not pruned).
    func rawEventCount() async throws -> Int
    /// This database's id, as exports name their source.
    func databaseID() async throws -> String
    /// Streams raw events received in [since, until) to `write`, oldest first, from one snapshot.
    func exportEvents(
        sinceMillis: Int64?, untilMillis: Int64?, write: @escaping @Sendable (ExportedEvent) throws -> Void
    ) async throws -> Int
    /// Adds exported events with their rollups, skipping those already taken from `source`; returns how many were new.
    func importEvents(_ events: [ExportedEvent], source: String) async throws -> Int
    /// Whether a write would succeed now.
    func isWritable() async -> Bool
    /// Events waiting for the writer.
    var queuedEvents: Int { get }
    /// Commits what was acknowledged and stops taking writes.
    func close()
}

extension PushTallyStore {
    /// `close()` from async code: it waits for the writers on a thread of its own, so the task only
    /// suspends. A writer's last commit may itself need the cooperative pool (PostgreSQL's does), which a
    /// blocked pool thread could starve.
    public func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                close()
                continuation.resume()
            }
            thread.name = "pushtally-store-close"
            thread.start()
        }
    }

    /// Stores events durably and returns, per event, whether it was a recognised retry; returns only after
    /// the commit holding them (the completion form, awaited).
    /// - Throws: ``WriterError/overloaded`` when the writer's queue is past its high-water mark.
    public func ingest(_ events: [IncomingEvent]) async throws -> [Bool] {
        try await withCheckedThrowingContinuation { continuation in
            ingest(events) { continuation.resume(with: $0) }
        }
    }

    /// Every push, registered or orphan, with its figures.
    public func pushFigures() async throws -> [PushFigures] {
        try await pushFigures(ReportFilter())
    }
}

extension SQLiteStore: PushTallyStore {
    public var location: String { path }

    /// One process owns a SQLite file's writer, so a check and a create cannot race.
    public func bootstrapAdminToken(label: String) async throws -> String? {
        if try await hasActiveTokens() { return nil }
        return try await createToken(role: .admin, label: label).token
    }
}
