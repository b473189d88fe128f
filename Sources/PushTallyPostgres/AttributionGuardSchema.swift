/// Migration 16: the guard of a one-statement group commit that attributes sessions and conversions
/// (``PostgresOneStatementCommit``).
///
/// The collector reads the touched devices' history first (``AttributionProbe``, one statement), plans their
/// credits, then sends its rows with those credits in one statement whose `pushtally_attribution_guard` call
/// runs before them: it does everything `pushtally_ingest_guard` does (the locks, the dedupe keys, `sent_at`,
/// the devices that were not loaded still needing no attribution), then checks under those locks that what
/// the plan was made from still stands: the same stored events in reach of each loaded device, with the same
/// credits, and the same prune cutoff. Anything else raises ``IngestGuardSchema/missState``, which rolls the
/// statement back, and the commit goes through the transaction path, which reads under its locks.
/// Written out here rather than built from the probe: a migration never changes once released.
enum AttributionGuardSchema {
    static let version = 16
    static let name = "v16-attribution-guard"

    static let statements = [
        """
        CREATE FUNCTION pushtally_attribution_guard(
            lock_pushes text[], lock_devices text[], per_device boolean,
            key_pushes text[], key_values text[],
            timed_pushes text[], timed_known boolean[], timed_sent bigint[],
            probe_devices text[], probe_from bigint[], outcome_kind bigint,
            history_devices text[], history_from bigint[], lookback bigint,
            seen_devices text[], seen_ids bigint[], seen_codes bigint[], seen_pushes text[],
            pruned_key text, pruned text
        ) RETURNS boolean LANGUAGE plpgsql AS $$
        DECLARE
            moved boolean;
        BEGIN
            PERFORM pushtally_ingest_guard(
                lock_pushes, lock_devices, per_device, key_pushes, key_values, timed_pushes, timed_known, timed_sent,
                probe_devices, probe_from, outcome_kind);
            IF (SELECT value FROM meta WHERE key = pruned_key) IS DISTINCT FROM pruned THEN
                RAISE EXCEPTION 'the prune cutoff moved' USING ERRCODE = 'PTG01';
            END IF;
            -- Planned for these devices on every call (EXECUTE), as the ingest guard's probe is.
            EXECUTE 'WITH now AS ('
                    'SELECT t.d, e.id, COALESCE(e.attribution, -1) AS a, COALESCE(e.attributed_push, '''') AS p '
                    'FROM unnest($1, $2) AS t(d, f) JOIN events e ON e.device_id = t.d AND e.device_id IS NOT NULL '
                    'AND e.event_time >= t.f - $3 AND NOT e.duplicate), '
                'was AS (SELECT * FROM unnest($4, $5, $6, $7) AS w(d, id, a, p)) '
                'SELECT EXISTS (SELECT * FROM now EXCEPT ALL SELECT * FROM was) '
                    'OR (SELECT count(*) FROM now) <> (SELECT count(*) FROM was)'
                INTO moved USING history_devices, history_from, lookback, seen_devices, seen_ids, seen_codes, seen_pushes;
            IF moved THEN
                RAISE EXCEPTION 'a device''s history moved' USING ERRCODE = 'PTG01';
            END IF;
            RETURN true;
        END $$
        """
    ]
}
