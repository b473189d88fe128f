/// Migration 8: the server-side half of the one-statement group commit (``PostgresOneStatementCommit``).
///
/// `pushtally_ingest_guard` does, inside the commit's one statement, what the transaction path does in its
/// first round trips (the advisory locks, in the same order, then the dedupe keys), and checks what the
/// collector predicted when it counted the rollups without asking: every key new, each push's `sent_at` as
/// cached, no device needing attribution. A prediction that does not hold raises ``missState``, which rolls
/// the whole statement back; the collector then commits the same events through the transaction path.
/// Written out here rather than built from ``PushLocks``: a migration never changes once released. Migration 18
/// (``AttributionProbeSchema``) replaces the function with one whose device probe keeps a plan of its own.
enum IngestGuardSchema {
    /// The SQLSTATE of a prediction that did not hold (a class of its own, so no server error is mistaken for it).
    static let missState = "PTG01"

    static let version8 = [
        """
        CREATE FUNCTION pushtally_ingest_guard(
            lock_pushes text[], lock_devices text[], per_device boolean,
            key_pushes text[], key_values text[],
            timed_pushes text[], timed_known boolean[], timed_sent bigint[],
            probe_devices text[], probe_from bigint[], outcome_kind bigint
        ) RETURNS boolean LANGUAGE plpgsql AS $$
        DECLARE
            inserted bigint;
            attributing boolean;
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
            -- Planned for these devices on every call (EXECUTE): a cached generic plan, blind to how few
            -- they are, could scan every event.
            IF cardinality(probe_devices) > 0 THEN
                EXECUTE 'SELECT EXISTS (SELECT 1 FROM unnest($1, $2) AS t(d, f) JOIN events s ON s.device_id = t.d '
                    'AND s.device_id IS NOT NULL AND s.event_time >= t.f AND s.kind >= $3 AND NOT s.duplicate)'
                    INTO attributing USING probe_devices, probe_from, outcome_kind;
                IF attributing THEN
                    RAISE EXCEPTION 'a device needs attributing' USING ERRCODE = 'PTG01';
                END IF;
            END IF;
            RETURN true;
        END $$
        """
    ]
}
