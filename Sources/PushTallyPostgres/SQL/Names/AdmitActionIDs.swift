import PushTallyCore

extension Queries {
    /// Admits `actions` of `app` in their order while fewer than `bound` are admitted; ids held already are left.
    struct AdmitActionIDs: StoreQuery {
        let app: String
        let actions: [String]
        let bound: Int64

        func sql(_ dialect: SQLDialect) -> String {
            """
            INSERT INTO action_ids (app, action)
            SELECT ?, u.a FROM unnest(?::text[]) WITH ORDINALITY AS u(a, o)
            WHERE NOT EXISTS (SELECT 1 FROM action_ids x WHERE x.app = ? AND x.action = u.a)
            ORDER BY u.o LIMIT GREATEST(? - (SELECT count(*) FROM action_ids WHERE app = ?), 0)
            ON CONFLICT DO NOTHING
            """
        }

        var values: [QueryValue] { [.text(app), .texts(actions), .text(app), .integer(bound), .text(app)] }
    }
}
