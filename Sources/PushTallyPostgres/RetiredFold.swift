import Logging
import PostgresNIO
import PushTallyCore

/// Folds a retired day partition into the ledger with PostgreSQL doing the summing: the rows are grouped
/// by what the counters key them by (push, kind, action, versions, 15-minute bucket; per second of event and
/// receive time for timing; credit and currency for outcomes), so what crosses the wire and is counted is a
/// row per group, not per event. Each group is counted exactly as its events would be one by one
/// (``RollupAccumulator``'s grouped additions), so the ledger ends the same as a row-by-row prune leaves it.
///
/// Pushes are folded in batches by push id, each a transaction holding its pushes' timing locks (as every
/// writer of timing does) and committing its mark (the last push id folded, in `retired_events`) with its
/// ledger rows; sessions and conversions go with the first batch. The sums are made once per run into
/// temporary tables, from the pushes after the mark, so a run that resumes sums only what is left.
struct RetiredFold {
    let table: String
    let maturityWindow: Int64
    let book: ActionIDBook
    let connection: PostgresConnection
    let logger: Logger
    static let pushesPerBatch = 500
    private static let temporaries = ["fold_receipts", "fold_shown", "fold_received", "fold_outcomes"]

    /// Folds the table from `mark` (`nil`: nothing folded yet) and drops it; returns its rows. Two
    /// transactions for a day of at most ``pushesPerBatch`` pushes (each commit is a WAL flush): the sums,
    /// then the fold with the drop.
    func run(from mark: String?) async throws -> Int {
        let total = try await PartitionMigration.inTransaction(connection, logger: logger) { try await sum(after: mark) }
        var mark = mark
        while let next = try await PartitionMigration.inTransaction(connection, logger: logger, { try await foldBatch(after: mark) }) {
            mark = next
        }
        return total
    }

    @discardableResult
    private func run(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) async throws -> [PostgresRow] {
        try await connection.run(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
    }

    /// Sums the rows of pushes after `mark` (and, from the start, the outcomes); returns the rows summed.
    private func sum(after mark: String?) async throws -> Int {
        let after = mark.map { "push_id > '\($0.replacingOccurrences(of: "'", with: "''"))'" } ?? "TRUE"
        let display = Int64(EventKind.display.rawValue)
        let session = Int64(EventKind.session.rawValue)
        // Left by a run that failed on this connection.
        for temporary in Self.temporaries { try await run("DROP TABLE IF EXISTS pg_temp.\(temporary)") }
        for statement in [
            """
            CREATE TEMP TABLE fold_receipts AS
            SELECT push_id, kind, action, duplicate, app_version, os_version, floor(event_time / 900000.0)::bigint AS bucket,
                   count(*) AS n, min(event_time) AS first, max(event_time) AS last
            FROM \(table) WHERE kind < \(session) AND \(after) GROUP BY 1, 2, 3, 4, 5, 6, 7
            """,
            """
            CREATE TEMP TABLE fold_shown AS
            SELECT push_id, floor(event_time / 1000.0)::bigint AS second, count(*) AS n
            FROM \(table) WHERE kind = \(display) AND NOT duplicate AND \(after) GROUP BY 1, 2
            """,
            """
            CREATE TEMP TABLE fold_received AS
            SELECT push_id, floor(received_at / 1000.0)::bigint AS second, count(*) AS n
            FROM \(table) WHERE kind = \(display) AND NOT duplicate AND \(after) GROUP BY 1, 2
            """,
            """
            CREATE TEMP TABLE fold_outcomes AS
            SELECT kind, attribution, attributed_push,
                   CASE WHEN value_micros IS NULL THEN '' ELSE coalesce(currency, '') END AS currency,
                   floor(event_time / 900000.0)::bigint AS bucket, count(*) AS n, sum(coalesce(value_micros, 0))::bigint AS value
            FROM \(table) WHERE kind >= \(session) AND NOT duplicate AND attribution IS NOT NULL AND \(mark == nil ? "TRUE" : "FALSE")
            GROUP BY 1, 2, 3, 4, 5
            """,
            "CREATE INDEX ON fold_receipts (push_id)",
            "CREATE INDEX ON fold_shown (push_id)",
            "CREATE INDEX ON fold_received (push_id)",
        ] {
            try await run(statement)
        }
        let counted = try await run(
            "SELECT (SELECT coalesce(sum(n), 0) FROM fold_receipts)::bigint + (SELECT coalesce(sum(n), 0) FROM fold_outcomes)::bigint"
                + " + (SELECT count(*) FROM \(table) WHERE kind >= \(session) AND (duplicate OR attribution IS NULL) AND \(mark == nil ? "TRUE" : "FALSE"))")
        return try Int(counted.first?.decode(Int64.self) ?? 0)
    }

    /// Folds the next batch of pushes after `mark` (and the outcomes, first); returns the new mark, or `nil`
    /// when that was the last batch, whose transaction also drops the table and its sums.
    private func foldBatch(after mark: String?) async throws -> String? {
        let candidates = try await run(
            "SELECT DISTINCT push_id FROM fold_receipts WHERE push_id > $1 ORDER BY 1 LIMIT \(Self.pushesPerBatch + 1)",
            binds(mark ?? "")
        ).decode(String.self).map { $0 }
        let pushIDs = Array(candidates.prefix(Self.pushesPerBatch))
        var accumulator = RollupAccumulator()
        if mark == nil { try await foldOutcomes(into: &accumulator) }
        if !pushIDs.isEmpty {
            try await PushLocks.lock(Set(pushIDs), mode: .shared, on: connection, logger: logger)
            try await foldReceipts(pushIDs, into: &accumulator)
            try await foldTiming(pushIDs, into: &accumulator)
        }
        try await PostgresRollupWriter.write(accumulator, to: .ledger, shard: 0, on: connection, logger: logger)
        guard candidates.count > pushIDs.count, let next = pushIDs.last else {
            try await run("DROP TABLE \(table)")
            try await connection.run("DELETE FROM retired_events WHERE name = \(table)", logger: logger)
            for temporary in Self.temporaries { try await run("DROP TABLE pg_temp.\(temporary)") }
            return nil
        }
        try await connection.run("UPDATE retired_events SET folded_through = \(next) WHERE name = \(table)", logger: logger)
        return next
    }

    private func foldReceipts(_ pushIDs: [String], into accumulator: inout RollupAccumulator) async throws {
        let rows = try await run(
            """
            SELECT push_id, kind, action, duplicate, app_version, os_version, bucket, n, first, last
            FROM fold_receipts WHERE push_id = ANY($1)
            """, binds(pushIDs))
        let groups = try rows.decode((String, Int, String, Bool, String?, String?, Int64, Int64, Int64, Int64).self).map { $0 }
        let pairs = ActionIDs.customPairs(groups.lazy.map { (pushID: $0.0, kind: EventKind(rawValue: $0.1) ?? .display, action: $0.2) })
        let actions = try await PostgresActionIDs.fold(
            pairs, book: book, admit: false, inTransaction: true, on: connection, logger: logger)
        for (pushID, rawKind, action, duplicate, appVersion, osVersion, bucket, count, first, last) in groups {
            let kind = EventKind(rawValue: rawKind) ?? .display
            accumulator.add(
                pushID: pushID, kind: kind, action: actions.folded(pushID: pushID, kind: kind, action: action), bucket: bucket,
                count: count, firstTime: first, lastTime: last, duplicate: duplicate, appVersion: appVersion, osVersion: osVersion)
        }
    }

    /// Latency buckets and late counts of registered pushes summed by PostgreSQL with the `sent_at` it reads
    /// under the locks (the bucket is ``LatencyHistogram/bucket(ofMillis:)``'s: the upper bounds at or below
    /// the whole seconds); pending seconds of the rest as they are.
    private func foldTiming(_ pushIDs: [String], into accumulator: inout RollupAccumulator) async throws {
        let bounds = LatencyHistogram.upperBoundsSeconds
        for (pushID, bucket, count) in try await run(
            """
            SELECT s.push_id, width_bucket(greatest(s.second * 1000 - p.sent_at, 0) / 1000, $2::bigint[]), sum(s.n)::bigint
            FROM fold_shown s JOIN pushes p ON p.push_id = s.push_id
            WHERE s.push_id = ANY($1) AND p.sent_at IS NOT NULL GROUP BY 1, 2
            """, binds(pushIDs, bounds)
        ).decode((String, Int, Int64).self) {
            accumulator.addLatency(pushID: pushID, bucket: bucket, count: count)
        }
        for (pushID, count) in try await run(
            """
            SELECT r.push_id, sum(r.n)::bigint FROM fold_received r JOIN pushes p ON p.push_id = r.push_id
            WHERE r.push_id = ANY($1) AND p.sent_at IS NOT NULL AND r.second * 1000 > p.sent_at + $2 GROUP BY 1
            """, binds(pushIDs, maturityWindow)
        ).decode((String, Int64).self) {
            accumulator.addLate(pushID: pushID, count: count)
        }
        for (clock, pushID, second, count) in try await run(
            """
            SELECT 0, push_id, second, n FROM fold_shown s WHERE s.push_id = ANY($1)
                AND NOT EXISTS (SELECT 1 FROM pushes p WHERE p.push_id = s.push_id AND p.sent_at IS NOT NULL)
            UNION ALL
            SELECT 1, push_id, second, n FROM fold_received r WHERE r.push_id = ANY($1)
                AND NOT EXISTS (SELECT 1 FROM pushes p WHERE p.push_id = r.push_id AND p.sent_at IS NOT NULL)
            """, binds(pushIDs)
        ).decode((Int, String, Int64, Int64).self) {
            accumulator.addPending(pushID: pushID, clock: clock, second: second, count: count)
        }
    }

    private func foldOutcomes(into accumulator: inout RollupAccumulator) async throws {
        for (rawKind, code, credited, currency, bucket, count, value) in try await run(
            "SELECT kind, attribution, attributed_push, currency, bucket, n, value FROM fold_outcomes"
        ).decode((Int, Int?, String?, String, Int64, Int64, Int64).self) {
            guard let attribution = Attribution(code: code, pushID: credited) else { continue }
            accumulator.addOutcomes(
                kind: EventKind(rawValue: rawKind) ?? .session, attribution: attribution, bucket: bucket, count: count,
                valueMicros: value, currency: currency)
        }
    }
}
