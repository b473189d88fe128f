/// Migration 30: a group commit's first three statements as one server-side function.
///
/// A commit in a transaction takes its locks (as ``PushLockStatement`` does), inserts its dedupe keys and probes the
/// devices it touches (as ``AttributionProbeStatement`` does). As three statements that is three round trips, and
/// each waits for two threads to wake, the server's and the collector's: on a loaded machine that wait, not the
/// statements' work, is most of a commit of sessions. `pushtally_commit_open` runs the three in that order in one
/// call. It is `VOLATILE`, so each of its statements
/// reads a snapshot taken after the locks before it were granted, as the separate statements did.
///
/// Its statements keep one generic plan per connection (`plan_cache_mode`), as the probe's do: a custom plan is
/// planned again on every call, and the call is on every commit's path.
///
/// The probe is asked for the devices the commit touches if none of its keys was stored before. A caller that
/// finds a key stored before (a retry) discards those rows and probes again for the devices it really touches
/// (``PostgresEventWriter``). Its rows come first, then the probe's; a key's row has `new_key_push` set, a
/// probe's `probe_device`. Written out rather than built: a migration never changes once released.
enum CommitOpenSchema {
    static let version = 30
    static let name = "v30-commit-open"

    static let statements = [
        """
        CREATE FUNCTION pushtally_commit_open(
            lock_pushes text[], lock_shared boolean, lock_devices text[], all_devices boolean, per_device boolean,
            rollup_shard bigint, key_pushes text[], key_values text[],
            probe_devices text[], probe_froms bigint[], probe_outcomes boolean[], lookback bigint, outcome_kind bigint,
            pruned_key text
        ) RETURNS TABLE (
            new_key_push text, new_key text,
            probe_device text, event_id bigint, event_kind bigint, event_push text, event_action text,
            event_at bigint, event_receipt text, event_credit bigint, event_credited_push text,
            event_value bigint, event_currency text, pruned_before text
        ) LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
        BEGIN
            -- Pushes, all devices, each device, the rollup shard, each group by key: PushLocks' order.
            PERFORM count(locked.l) FROM (
                SELECT CASE
                    WHEN g = 0 AND lock_shared THEN pg_advisory_xact_lock_shared(k)::text
                    WHEN g = 0 THEN pg_advisory_xact_lock(k)::text
                    WHEN g = 1 AND per_device THEN pg_advisory_xact_lock_shared(k)::text
                    WHEN g = 1 THEN pg_advisory_xact_lock(k)::text
                    ELSE pg_advisory_xact_lock(k)::text END AS l
                FROM (
                    SELECT DISTINCT 0 AS g, hashtextextended(p, 0) AS k FROM unnest(lock_pushes) AS p
                    UNION SELECT 1, hashtextextended('devices', 0) WHERE all_devices
                    UNION SELECT DISTINCT 2, hashtextextended('device:' || d, 0) FROM unnest(lock_devices) AS d
                    UNION SELECT 3, hashtextextended('rollup-shard:' || rollup_shard::text, 0) WHERE rollup_shard IS NOT NULL
                    ORDER BY 1, 2
                ) AS keys
            ) AS locked;
            IF cardinality(key_pushes) > 0 THEN
                RETURN QUERY
                WITH stored AS (
                    INSERT INTO dedupe (push_id, key)
                    SELECT * FROM unnest(key_pushes, key_values) ORDER BY 1, 2
                    ON CONFLICT DO NOTHING RETURNING dedupe.push_id, dedupe.key)
                SELECT stored.push_id, stored.key, NULL::text, NULL::bigint, NULL::bigint, NULL::text, NULL::text,
                    NULL::bigint, NULL::text, NULL::bigint, NULL::text, NULL::bigint, NULL::text, NULL::text
                FROM stored;
            END IF;
            IF cardinality(probe_devices) > 0 THEN
                RETURN QUERY
                SELECT NULL::text, NULL::text, probe.*
                FROM pushtally_attribution_probe(probe_devices, probe_froms, probe_outcomes, lookback, outcome_kind, pruned_key) AS probe;
            END IF;
        END $$
        """
    ]
}
