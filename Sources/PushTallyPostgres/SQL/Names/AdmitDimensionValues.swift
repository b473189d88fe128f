import PushTallyCore

extension Queries {
    /// Admits `names` of `app` for `dimension` (a ``BoundedField`` raw value) in their order while fewer than `bound`
    /// are admitted; values held already are left.
    struct AdmitDimensionValues: StoreQuery {
        let app: String
        let dimension: Int
        let names: [String]
        let bound: Int64

        func sql(_ dialect: SQLDialect) -> String {
            """
            INSERT INTO dimension_values (app, dimension, value)
            SELECT ?, ?, u.a FROM unnest(?::text[]) WITH ORDINALITY AS u(a, o)
            WHERE NOT EXISTS (
                SELECT 1 FROM dimension_values x WHERE x.app = ? AND x.dimension = ? AND x.value = u.a)
            ORDER BY u.o LIMIT GREATEST(
                ? - (SELECT count(*) FROM dimension_values WHERE app = ? AND dimension = ?), 0)
            ON CONFLICT DO NOTHING
            """
        }

        var values: [QueryValue] {
            let dimension = QueryValue.integer(Int64(dimension))
            return [.text(app), dimension, .texts(names), .text(app), dimension, .integer(bound), .text(app), dimension]
        }
    }
}
