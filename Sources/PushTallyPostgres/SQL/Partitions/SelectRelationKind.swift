import PushTallyCore

extension Queries {
    /// The kind of the relation `name`: `r` for a plain table, `p` for a partitioned one; no row when there is none.
    struct SelectRelationKind: RowQuery {
        let name: String

        func sql(_ dialect: SQLDialect) -> String { "SELECT relkind::text FROM pg_class WHERE oid = to_regclass(?)" }

        var values: [QueryValue] { [.text(name)] }

        func row(_ columns: some QueryRow) throws -> String { try columns.text(0) }
    }
}
