import PostgresNIO

/// A group commit's dedupe keys, inserted in key order, answering those that were new: prepared, as every
/// commit with ids runs it.
struct DedupeInsertStatement: PostgresPreparedStatement {
    typealias Row = (String, String)

    static let name = "pushtally_dedupe_insert_v1"

    static let sql = """
        INSERT INTO dedupe (push_id, key)
        SELECT * FROM unnest($1::text[], $2::text[]) ORDER BY 1, 2
        ON CONFLICT DO NOTHING RETURNING push_id, key
        """

    let pushIDs: [String]
    let keys: [String]

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(pushIDs)
        bindings.append(keys)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(Row.self)
    }
}
