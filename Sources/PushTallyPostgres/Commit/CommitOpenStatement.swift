import PostgresNIO
import PushTallyCore

/// A commit's locks, dedupe keys and attribution probe in one round trip (``CommitOpenSchema``), prepared so the
/// call is parsed once per connection.
struct CommitOpenStatement: PostgresPreparedStatement {
    /// A row: a key stored by this call (its push and key), or a probe's row (``AttributionProbeStatement/Row``).
    typealias Row = (
        String?, String?, String?, Int64?, Int?, String?, String?, Int64?, String?, Int?, String?, Int64?, String?, String?
    )

    /// What the call answered.
    struct Opened {
        /// The keys this call stored; the others were stored before.
        var inserted: Set<DedupeKey> = []
        /// The probe's rows for the devices asked about.
        var probed: [AttributionProbeStatement.Row] = []
    }

    static let name = "pushtally_commit_open_v1"

    static let sql = """
        SELECT * FROM pushtally_commit_open(
            $1::text[], $2::boolean, $3::text[], $4::boolean, $5::boolean, $6::bigint, $7::text[], $8::text[],
            $9::text[], $10::bigint[], $11::boolean[], $12::bigint, $13::bigint, $14::text)
        """

    let locks: PushLockStatement
    /// The distinct keys, in key order.
    let keys: [DedupeKey]
    let probe: AttributionProbeStatement

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 14)
        bindings.append(locks.pushIDs)
        bindings.append(locks.shared)
        bindings.append(locks.devices)
        bindings.append(locks.allDevices)
        bindings.append(locks.perDevice)
        bindings.append(locks.rollupShard)
        bindings.append(keys.map(\.pushID))
        bindings.append(keys.map(\.key))
        bindings.append(probe.devices)
        bindings.append(probe.froms)
        bindings.append(probe.outcomes)
        bindings.append(probe.lookbackMillis)
        bindings.append(Int64(EventKind.session.rawValue))
        bindings.append(AttributionSchema.prunedBeforeKey)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(Row.self)
    }

    /// Sorts the rows into stored keys and probe rows.
    static func opened(_ rows: [Row]) -> Opened {
        var opened = Opened()
        for (keyPush, key, device, id, kind, push, action, time, receipt, code, credited, value, currency, pruned) in rows {
            if let keyPush, let key {
                opened.inserted.insert(DedupeKey(pushID: keyPush, key: key))
            } else if let device {
                opened.probed.append((device, id, kind, push, action, time, receipt, code, credited, value, currency, pruned))
            }
        }
        return opened
    }
}
