import Logging
import PostgresNIO

/// Per-push transaction-scoped advisory locks. Writers of a push's timing hold it shared (they may add
/// pending timing); registration holds it exclusively while it sets `sent_at` and settles pending timing.
/// Without it, a receipt committed by one collector while another registers the push could stay pending.
///
/// Ingest also locks, exclusively and after the push locks, each device whose events it stores (keys drawn
/// from `device:` + id, apart from the push keys): attribution reads a device's history and writes credits
/// from it, so two collectors storing events of one device must take turns, the second seeing the first.
/// Advisory locks fill PostgreSQL's shared lock table (`max_locks_per_transaction` × connections, 6,400
/// by default), so a commit of more devices than ``maximumDeviceLocks`` takes one lock over every device
/// instead; the others hold that lock shared beside their device locks, so both kinds still exclude each other.
/// A group commit last locks, exclusively, the collector shard whose rollup rows it writes
/// (``RollupShardLockSchema``), so commits sharing rollup rows never hold row locks at once.
/// PostgreSQL's alone: a SQLite file has one writer, so its commits never overlap.
enum PushLocks {
    enum Mode {
        case shared, exclusive
    }

    /// Per-device locks a transaction takes at most: 16 writers holding as many stay well inside the
    /// default lock table.
    static let maximumDeviceLocks = 256

    static func lock(
        _ pushIDs: Set<String>, mode: Mode, devices: Set<String> = [], rollupShard: Int64? = nil, on connection: PostgresConnection,
        logger: Logger
    ) async throws {
        guard !pushIDs.isEmpty || !devices.isEmpty || rollupShard != nil else { return }
        let statement = self.statement(pushIDs, mode: mode, devices: devices, rollupShard: rollupShard)
        try connection.ensureOpen()
        for try await _ in try await connection.execute(statement, logger: logger) {}
    }

    /// The statement that takes these locks (it takes none when given none).
    static func statement(
        _ pushIDs: Set<String>, mode: Mode, devices: Set<String> = [], rollupShard: Int64? = nil
    ) -> PushLockStatement {
        PushLockStatement(
            pushIDs: Array(pushIDs), shared: mode == .shared,
            devices: devices.count <= maximumDeviceLocks ? Array(devices) : [], allDevices: !devices.isEmpty,
            perDevice: devices.count <= maximumDeviceLocks, rollupShard: rollupShard)
    }
}
