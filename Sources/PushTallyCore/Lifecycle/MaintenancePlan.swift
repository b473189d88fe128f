/// How pruning, forgetting and rebuilding proceed, whatever the engine: the engines run the statements for
/// each step; the steps, their order and their sizes are decided here.
///
/// - Prune and forget delete raw events in batches, each in a transaction that first counts exactly the rows
///   it deletes into the ledger (``RollupCounter`` into ``RollupTarget/ledger``), so reports never change.
///   Forget then deletes the device's dedupe keys (``DedupeKeys/deviceSuffix(keyedDeviceID:)``).
/// - A rebuild empties every rollup table, refills each from its ledger twin (``rebuildPairs``) and counts
///   every raw event on top, in one transaction, flushing deltas every ``rebuildChunk`` events.
public enum MaintenancePlan {
    /// Raw events deleted per transaction: small enough that the writer is never held for long.
    public static let batchSize = 5000
    /// Events counted between two flushes of a rebuild's deltas: bounded memory on big tables.
    package static let rebuildChunk = 100_000
    /// Each live rollup table with the ledger table it is refilled from.
    package static let rebuildPairs = Array(zip(RollupTarget.rollups.tables, RollupTarget.ledger.tables))
}
