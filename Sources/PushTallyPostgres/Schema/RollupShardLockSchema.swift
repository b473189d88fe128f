/// Migration 20: the one-statement commit's guard also takes the lock of the collector's rollup shard.
///
/// Two commits that write the same rollup shard could otherwise take their row locks in different table
/// orders: the order in which PostgreSQL runs a statement's data-modifying `WITH` clauses is, in its manual's
/// words, unpredictable, and the transaction path writes the same tables through statements of its own. A
/// transaction-scoped advisory lock per shard (exclusive, taken after the push and device locks, before the
/// first dedupe key) makes such commits take turns for their whole write, so no two of them ever hold row
/// locks at once, whatever order each writes its tables in. Collectors draw their shards apart and a collector's
/// writers each have their own, so the lock is nearly always free; two commits that share a shard also share
/// that shard's row of the current quarter hour (`rollup_time`), so they took turns already.
///
/// The guard gains an argument, so this is an overload beside version 18's, which a collector of an earlier
/// release keeps calling while others upgrade. Written out rather than built: a migration never changes once
/// released.
enum RollupShardLockSchema {
    static let version = 20
    static let name = "v20-rollup-shard-lock"

    static let statements = [
        """
        CREATE FUNCTION pushtally_ingest_guard(
            lock_pushes text[], lock_devices text[], per_device boolean,
            key_pushes text[], key_values text[],
            timed_pushes text[], timed_known boolean[], timed_sent bigint[],
            probe_devices text[], probe_from bigint[], outcome_kind bigint, rollup_shard bigint
        ) RETURNS boolean LANGUAGE plpgsql AS $$
        DECLARE
            inserted bigint;
        BEGIN
            -- Pushes shared, then every device, then each device, then the rollup shard, each group by key:
            -- PushLocks' order.
            PERFORM CASE g WHEN 0 THEN pg_advisory_xact_lock_shared(k)
                           WHEN 1 THEN CASE WHEN per_device THEN pg_advisory_xact_lock_shared(k) ELSE pg_advisory_xact_lock(k) END
                           ELSE pg_advisory_xact_lock(k) END
            FROM (
                SELECT DISTINCT 0 AS g, hashtextextended(p, 0) AS k FROM unnest(lock_pushes) AS p
                UNION SELECT 1, hashtextextended('devices', 0) WHERE cardinality(lock_devices) > 0
                UNION SELECT DISTINCT 2, hashtextextended('device:' || d, 0) FROM unnest(lock_devices) AS d WHERE per_device
                UNION SELECT 3, hashtextextended('rollup-shard:' || rollup_shard::text, 0)
                ORDER BY 1, 2
            ) AS keys;
            IF cardinality(key_pushes) > 0 THEN
                WITH i AS (
                    INSERT INTO dedupe (push_id, key)
                    SELECT * FROM unnest(key_pushes, key_values) ORDER BY 1, 2
                    ON CONFLICT DO NOTHING RETURNING 1)
                SELECT count(*) INTO inserted FROM i;
                IF inserted <> cardinality(key_pushes) THEN
                    RAISE EXCEPTION 'a dedupe key was stored before' USING ERRCODE = 'PTG01';
                END IF;
            END IF;
            IF cardinality(timed_pushes) > 0 AND EXISTS (
                SELECT 1 FROM unnest(timed_pushes, timed_known, timed_sent) AS t(p, known, sent)
                LEFT JOIN pushes ON pushes.push_id = t.p
                WHERE (pushes.sent_at IS NOT NULL) <> t.known OR pushes.sent_at <> t.sent
            ) THEN
                RAISE EXCEPTION 'a push''s sent_at changed' USING ERRCODE = 'PTG01';
            END IF;
            IF cardinality(probe_devices) > 0
                AND pushtally_devices_attributing(probe_devices, probe_from, outcome_kind) THEN
                RAISE EXCEPTION 'a device needs attributing' USING ERRCODE = 'PTG01';
            END IF;
            RETURN true;
        END $$
        """
    ]
}
