/// Migration 18: the attribution probes of a group commit as server-side functions with plans of their own.
///
/// `pushtally_attribution_probe` returns, for each touched device, its stored events in reach (one row of
/// `NULL`s for a device with none), as ``PostgresAttribution`` reads them. The function keeps one generic plan
/// per connection, so PostgreSQL does not plan the probe on every commit (planning it afresh costs more than
/// running it for a commit of sessions over many day partitions). The planner settings make that
/// plan a nested loop over each day partition's device index whatever the statistics say: planned once, early,
/// against partitions never analysed, a generic plan otherwise reads every event of the day per commit.
///
/// The one-statement commit's guard (``IngestGuardSchema``) asks the same of its devices through
/// `pushtally_devices_attributing`, with a plan of its own and the bound on `received_at` stated, so it reads
/// only the day partitions in reach. Written out rather than built: a migration never changes once released.
enum AttributionProbeSchema {
    static let version = 18
    static let name = "v18-attribution-probe"

    /// A device with only new displays or taps (`outcome` false) is read only if it has a session or
    /// conversion after them. An event is received no earlier than its (clamped) event time, so each bound on
    /// `event_time` holds for `received_at` too: stated on the partition key, it keeps each device's lookup to
    /// the day partitions from the window's start.
    static let statements = [
        """
        CREATE FUNCTION pushtally_attribution_probe(
            devices text[], froms bigint[], outcomes boolean[], lookback bigint, outcome_kind bigint, pruned_key text
        ) RETURNS TABLE (
            probe_device text, event_id bigint, event_kind bigint, event_push text, event_action text,
            event_at bigint, event_receipt text, event_credit bigint, event_credited_push text,
            event_value bigint, event_currency text, pruned_before text
        ) LANGUAGE plpgsql STABLE
        SET plan_cache_mode = force_generic_plan SET enable_seqscan = off SET enable_hashjoin = off
        SET enable_mergejoin = off
        AS $$
        BEGIN
            RETURN QUERY
            SELECT t.d, e.id, e.kind, e.push_id, e.action, e.event_time, e.receipt_id, e.attribution, e.attributed_push,
                e.value_micros, e.currency, (SELECT m.value FROM meta m WHERE m.key = pruned_key)
            FROM unnest(devices, froms, outcomes) AS t(d, f, o)
            LEFT JOIN events e ON e.device_id = t.d AND e.device_id IS NOT NULL
                AND e.event_time >= t.f - lookback AND e.received_at >= t.f - lookback
                AND NOT e.duplicate
            WHERE t.o OR EXISTS (
                SELECT 1 FROM events s WHERE s.device_id = t.d AND s.device_id IS NOT NULL AND s.event_time >= t.f
                AND s.received_at >= t.f AND s.kind >= outcome_kind AND NOT s.duplicate);
        END $$
        """,
        """
        CREATE FUNCTION pushtally_devices_attributing(devices text[], froms bigint[], outcome_kind bigint)
        RETURNS boolean LANGUAGE plpgsql STABLE
        SET plan_cache_mode = force_generic_plan SET enable_seqscan = off SET enable_hashjoin = off
        SET enable_mergejoin = off
        AS $$
        BEGIN
            RETURN EXISTS (
                SELECT 1 FROM unnest(devices, froms) AS t(d, f)
                JOIN events s ON s.device_id = t.d AND s.device_id IS NOT NULL AND s.event_time >= t.f
                    AND s.received_at >= t.f AND s.kind >= outcome_kind AND NOT s.duplicate);
        END $$
        """,
        """
        CREATE OR REPLACE FUNCTION pushtally_ingest_guard(
            lock_pushes text[], lock_devices text[], per_device boolean,
            key_pushes text[], key_values text[],
            timed_pushes text[], timed_known boolean[], timed_sent bigint[],
            probe_devices text[], probe_from bigint[], outcome_kind bigint
        ) RETURNS boolean LANGUAGE plpgsql AS $$
        DECLARE
            inserted bigint;
        BEGIN
            -- Pushes shared, then every device, then each device, each group by key: PushLocks' order.
            PERFORM CASE g WHEN 0 THEN pg_advisory_xact_lock_shared(k)
                           WHEN 1 THEN CASE WHEN per_device THEN pg_advisory_xact_lock_shared(k) ELSE pg_advisory_xact_lock(k) END
                           ELSE pg_advisory_xact_lock(k) END
            FROM (
                SELECT DISTINCT 0 AS g, hashtextextended(p, 0) AS k FROM unnest(lock_pushes) AS p
                UNION SELECT 1, hashtextextended('devices', 0) WHERE cardinality(lock_devices) > 0
                UNION SELECT DISTINCT 2, hashtextextended('device:' || d, 0) FROM unnest(lock_devices) AS d WHERE per_device
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
            -- The probe's plan is the function's own (a nested loop over each day partition's device index).
            IF cardinality(probe_devices) > 0
                AND pushtally_devices_attributing(probe_devices, probe_from, outcome_kind) THEN
                RAISE EXCEPTION 'a device needs attributing' USING ERRCODE = 'PTG01';
            END IF;
            RETURN true;
        END $$
        """,
    ]
}
