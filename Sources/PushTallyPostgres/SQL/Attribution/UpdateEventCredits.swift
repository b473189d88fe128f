import PushTallyCore

extension Queries {
    /// Stores new credits on stored events, the lists zipped by position (`''` for no push, stored as `NULL`);
    /// returns the id and receive time of each row updated (a prune may have deleted one meanwhile).
    struct UpdateEventCredits: RowQuery {
        let ids: [Int64]
        let codes: [Int64]
        let pushes: [String]

        func sql(_ dialect: SQLDialect) -> String {
            """
            UPDATE events AS e SET attribution = u.a, attributed_push = NULLIF(u.p, '')
            FROM unnest(?::bigint[], ?::bigint[], ?::text[]) AS u(id, a, p)
            WHERE e.id = u.id RETURNING e.id, e.received_at
            """
        }

        var values: [QueryValue] { [.integers(ids), .integers(codes), .texts(pushes)] }

        func row(_ columns: some QueryRow) throws -> (id: Int64, receivedAt: Int64) {
            (try columns.int64(0), try columns.int64(1))
        }
    }
}
