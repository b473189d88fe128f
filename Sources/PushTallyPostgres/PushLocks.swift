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
/// PostgreSQL's alone: a SQLite file has one writer, so its commits never overlap.
enum PushLocks {
    enum Mode {
        case shared, exclusive
    }

    /// Per-device locks a transaction takes at most: 16 writers holding as many stay well inside the
    /// default lock table.
    static let maximumDeviceLocks = 256

    static func lock(
        _ pushIDs: Set<String>, mode: Mode, devices: Set<String> = [], on connection: PostgresConnection, logger: Logger
    ) async throws {
        guard !pushIDs.isEmpty || !devices.isEmpty else { return }
        let function = mode == .shared ? "pg_advisory_xact_lock_shared" : "pg_advisory_xact_lock"
        let perDevice = devices.count <= maximumDeviceLocks
        let allDevices = perDevice ? "pg_advisory_xact_lock_shared" : "pg_advisory_xact_lock"
        // Taken in one order everywhere (pushes, all devices, each device, each group by key), so two
        // transactions never wait on each other's locks in a cycle.
        try await connection.run(
            PostgresQuery(
                unsafeSQL: """
                    SELECT CASE g WHEN 0 THEN \(function)(k) WHEN 1 THEN \(allDevices)(k) ELSE pg_advisory_xact_lock(k) END
                    FROM (
                        SELECT DISTINCT 0 AS g, hashtextextended(p, 0) AS k FROM unnest($1::text[]) AS p
                        UNION SELECT 1, hashtextextended('devices', 0) WHERE $3
                        UNION SELECT DISTINCT 2, hashtextextended('device:' || d, 0) FROM unnest($2::text[]) AS d
                        ORDER BY 1, 2
                    ) AS keys
                    """,
                binds: {
                    var binds = PostgresBindings()
                    binds.append(Array(pushIDs))
                    binds.append(perDevice ? Array(devices) : [])
                    binds.append(!devices.isEmpty)
                    return binds
                }()),
            logger: logger)
    }
}
