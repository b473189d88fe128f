/// Migration 18: the attribution probe of a group commit as a server-side function with a plan of its own.
///
/// `pushtally_attribution_probe` returns, for each touched device, its stored events in reach (one row of
/// `NULL`s for a device with none), as ``PostgresAttribution`` reads them. The function keeps one generic plan
/// per connection, so PostgreSQL no longer plans the probe on every commit (planned afresh, it cost about 2 ms
/// against 1 ms to run for a commit of 32 sessions over ten day partitions). The planner settings make that
/// plan a nested loop over each day partition's device index whatever the statistics say: planned once, early,
/// against partitions never analysed, a generic plan otherwise reads every event of the day per commit.
/// Written out rather than built: a migration never changes once released.
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
        """
    ]
}
