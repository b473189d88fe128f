import PushTallyCore

extension Queries {
    /// Every partition of `events` with its bound as PostgreSQL spells it (`FOR VALUES FROM (…) TO (…)`, or
    /// `DEFAULT`).
    struct SelectEventPartitions: RowQuery {
        func sql(_ dialect: SQLDialect) -> String {
            """
            SELECT c.relname::text, pg_get_expr(c.relpartbound, c.oid)
            FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'events'::regclass
            """
        }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> (name: String, bound: String) {
            (try columns.text(0), try columns.text(1))
        }
    }
}
