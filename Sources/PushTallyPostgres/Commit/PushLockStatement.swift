import PostgresNIO

/// The locks of ``PushLocks/lock(_:mode:devices:rollupShard:on:logger:)`` as one prepared statement, parsed and
/// planned once per connection. A group commit passes the same arguments to `pushtally_commit_open`
/// (``CommitOpenStatement``), which takes them in the same order before its keys and probe.
struct PushLockStatement: PostgresPreparedStatement {
    typealias Row = Int64

    static let name = "pushtally_locks_v2"

    // Taken in one order everywhere (pushes, all devices, each device, the rollup shard, each group by key), so two
    // transactions never wait on each other's locks in a cycle. The count only gives the statement a row to
    // answer (`void` has no decoder) and names the locks' column, so none is left unevaluated.
    static let sql = """
        SELECT count(locked.l) FROM (
            SELECT CASE
                WHEN g = 0 AND $2 THEN pg_advisory_xact_lock_shared(k)::text
                WHEN g = 0 THEN pg_advisory_xact_lock(k)::text
                WHEN g = 1 AND $5 THEN pg_advisory_xact_lock_shared(k)::text
                WHEN g = 1 THEN pg_advisory_xact_lock(k)::text
                ELSE pg_advisory_xact_lock(k)::text END AS l
            FROM (
                SELECT DISTINCT 0 AS g, hashtextextended(p, 0) AS k FROM unnest($1::text[]) AS p
                UNION SELECT 1, hashtextextended('devices', 0) WHERE $4
                UNION SELECT DISTINCT 2, hashtextextended('device:' || d, 0) FROM unnest($3::text[]) AS d
                UNION SELECT 3, hashtextextended('rollup-shard:' || $6::bigint::text, 0) WHERE $6::bigint IS NOT NULL
                ORDER BY 1, 2
            ) AS keys
        ) AS locked
        """

    let pushIDs: [String]
    let shared: Bool
    /// Each device locked on its own; empty past ``PushLocks/maximumDeviceLocks``, when the lock over all
    /// devices is taken exclusively instead.
    let devices: [String]
    /// Whether the commit stores events of any device (the lock over all devices, shared or exclusive).
    let allDevices: Bool
    let perDevice: Bool
    /// The collector shard whose rollup rows the transaction writes, locked exclusively
    /// (``RollupShardLockSchema``); `nil` when it writes none.
    let rollupShard: Int64?

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 6)
        bindings.append(pushIDs)
        bindings.append(shared)
        bindings.append(devices)
        bindings.append(allDevices)
        bindings.append(perDevice)
        bindings.append(rollupShard)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(Int64.self)
    }
}
