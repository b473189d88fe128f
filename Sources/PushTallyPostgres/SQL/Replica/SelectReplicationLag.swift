import PushTallyCore

extension Queries {
    /// Whether the database holds the PushTally schema, and its replay lag in seconds: 0 for a primary, and for a
    /// standby that streams from its primary and has replayed all it received; else the time since its last
    /// replayed commit (infinite before any). One row.
    ///
    /// `pg_stat_wal_receiver` shows its row (if not every column) to any role while a receiver runs.
    struct SelectReplicationLag: RowQuery {
        func sql(_ dialect: SQLDialect) -> String {
            """
            SELECT to_regclass('pushtally_migrations') IS NOT NULL, CASE
                WHEN NOT pg_is_in_recovery() THEN 0
                WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn()
                    AND EXISTS (SELECT 1 FROM pg_stat_wal_receiver WHERE pid IS NOT NULL) THEN 0
                ELSE COALESCE(EXTRACT(EPOCH FROM clock_timestamp() - pg_last_xact_replay_timestamp()), 'Infinity')
            END::float8
            """
        }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> (hasSchema: Bool, lagSeconds: Double) {
            (try columns.boolean(0), try columns.double(1))
        }
    }
}
