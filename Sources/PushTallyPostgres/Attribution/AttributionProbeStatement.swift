import PostgresNIO
import PushTallyCore

/// The attribution probe of a group commit (``PostgresAttribution``): a call of the server-side function
/// (``AttributionProbeSchema``) that keeps the probe's plan, itself prepared so the call is parsed once per
/// connection too.
struct AttributionProbeStatement: PostgresPreparedStatement {
    /// A row: the device, its stored event in reach (all `nil` for a device with none) and the prune cutoff.
    typealias Row = (String, Int64?, Int?, String?, String?, Int64?, String?, Int?, String?, Int64?, String?, String?)

    static let name = "pushtally_attribution_probe_v1"

    static let sql = "SELECT * FROM pushtally_attribution_probe($1::text[], $2::bigint[], $3::boolean[], $4::bigint, $5::bigint, $6::text)"

    let devices: [String]
    let froms: [Int64]
    let outcomes: [Bool]
    let lookbackMillis: Int64

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 6)
        bindings.append(devices)
        bindings.append(froms)
        bindings.append(outcomes)
        bindings.append(lookbackMillis)
        bindings.append(Int64(EventKind.session.rawValue))
        bindings.append(AttributionSchema.prunedBeforeKey)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(Row.self)
    }
}
