/// Retention, erasure, rebuilds and moving raw events between databases (``MaintenancePlan``).
public protocol StoreMaintenance: Sendable {
    /// Deletes raw events received before the cutoff, folding their counts into the ledger; reports do not change.
    @discardableResult
    func prune(receivedBefore cutoffMillis: Int64, batchSize: Int) async throws -> Int
    /// Deletes one device's raw events (folding their counts into the ledger) and its dedupe keys.
    @discardableResult
    func forget(deviceID: String) async throws -> Int
    /// Recomputes every rollup from the ledger plus the raw events.
    func rebuildRollups() async throws
    /// Raw events still stored (not pruned).
    func rawEventCount() async throws -> Int
    /// Names stored in a spelling other than NFC beside their NFC spelling, kept apart by the spelling migration
    /// (``SpellingMigration``); empty for a database written only by a version that put names in NFC at the door.
    func legacySpellings() async throws -> [LegacySpelling]
    /// This database's id, as exports name their source.
    func databaseID() async throws -> String
    /// Streams raw events received in [since, until) to `write`, oldest first, from one snapshot.
    func exportEvents(
        sinceMillis: Int64?, untilMillis: Int64?, write: @escaping @Sendable (ExportedEvent) throws -> Void
    ) async throws -> Int
    /// Adds exported events with their rollups, skipping those already taken from `source`; returns how many were new.
    func importEvents(_ events: [ExportedEvent], source: String) async throws -> Int
}
