extension Queries {
    /// Whether any token that is not revoked exists (one row).
    package struct SelectActiveTokensExist: RowQuery {
        package init() {}

        package func sql(_ dialect: SQLDialect) -> String {
            "SELECT EXISTS (SELECT 1 FROM tokens WHERE revoked_at IS NULL)"
        }

        package var values: [QueryValue] { [] }

        package func row(_ columns: some QueryRow) throws -> Bool { try columns.boolean(0) }
    }
}
