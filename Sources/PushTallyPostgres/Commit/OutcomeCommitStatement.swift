import PostgresNIO
import PushTallyCore

/// The raw rows and upserts of a group commit of sessions and conversions as a prepared statement: every
/// row travels as column arrays that `unnest` turns back into rows, so the text is the same whatever the
/// commit holds, and PostgreSQL parses and plans it once per connection.
///
/// Built as multi-row `VALUES`, the statement would change with every commit's size and be parsed and
/// planned each time. It writes what
/// ``PostgresEventWriter``'s built statement writes for such a commit, in the same table order: raw rows, the
/// outcome rollups, the audience rollup, each table's rows in key order. A commit with anything else (receipts,
/// webhook events, rollups of displays) takes the built statement.
struct OutcomeCommitStatement: PostgresPreparedStatement {
    typealias Row = Int64

    static let name = "pushtally_outcome_commit_v2"

    /// The shared raw insert and upserts (``SQLDialect``), each fed by `unnest` over column arrays; the
    /// parameters count on from `$1` in binding order (``init(rows:rollups:audience:shard:)``).
    static let sql: String = {
        var parameters = UnnestParameters()
        let events = parameters.arrays(EventColumns.all.map(\.type.arrayElement))
        let outcome = parameters.arrays(for: .outcome)
        let outcomeTime = parameters.arrays(for: .outcomeTime)
        let audience = parameters.arrays(["bigint", "text", "text", "text", "bigint", "bigint", "text"])
        let shard = "$\(parameters.next())::bigint"
        let upserts = PostgresRollupWriter.Upserts.rollups
        let audienceUpsert = SQLDialect.postgres.audienceUpsert
        return """
            WITH w0 AS (
                \(SQLDialect.eventInsert(EventColumns.all)) SELECT * FROM unnest(\(events))
            ), w1 AS (
                \(upserts.outcome.head)
                SELECT *, \(shard) FROM unnest(\(outcome))
                \(upserts.outcome.conflict)
            ), w2 AS (
                \(upserts.outcomeTime.head)
                SELECT *, \(shard) FROM unnest(\(outcomeTime))
                \(upserts.outcomeTime.conflict)
            ), w3 AS (
                \(audienceUpsert.head)
                SELECT * FROM unnest(\(audience))
                \(audienceUpsert.conflict)
            )
            SELECT 1::bigint
            """
    }()

    private let bindings: PostgresBindings

    /// The statement for `rows` (each with whether it is a retry and its credit), their counted `rollups` in
    /// rollup shard `shard`, and their `audience` rows (in key order); `nil` when a row names a push or the
    /// rollups hold more than outcomes, which only the built statement writes.
    init?(rows: [(event: StoredEvent, duplicate: Bool, credit: Attribution?)], rollups: RollupAccumulator, audience: [AudienceRow], shard: Int64) {
        guard !rows.contains(where: \.event.kind.namesPush), rollups.holdsOnlyOutcomes else { return nil }
        var binds = PostgresBindings(capacity: EventColumns.all.count + 20)
        binds.appendEventColumns(EventColumns.all, of: rows)
        let (outcomes, times) = PostgresRollupWriter.sortedOutcomes(rollups)
        binds.appendKeys(of: outcomes, .outcome)
        binds.appendValues(of: outcomes, PostgresRollupWriter.Fields.outcome)
        binds.appendKeys(of: times, .outcomeTime)
        binds.appendValues(of: times, PostgresRollupWriter.Fields.outcomeTime)
        binds.append(audience.map(\.key.bucket))
        binds.append(audience.map(\.key.deviceID))
        binds.append(audience.map(\.key.app))
        binds.append(audience.map(\.key.appVersion))
        binds.append(audience.map(\.known))
        binds.append(audience.map(\.sessionTime))
        binds.append(audience.map(\.storedPermission))
        binds.append(shard)
        bindings = binds
    }

    func makeBindings() -> PostgresBindings { bindings }

    func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
}
