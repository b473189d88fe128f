extension Queries {
    /// Every token, revoked ones included, oldest first.
    package struct SelectTokens: RowQuery {
        package init() {}

        package func sql(_ dialect: SQLDialect) -> String {
            "SELECT id, role, label, created_at, revoked_at FROM tokens ORDER BY created_at, id"
        }

        package var values: [QueryValue] { [] }

        package func row(_ columns: some QueryRow) throws -> TokenInfo {
            TokenInfo(
                id: try columns.text(0), role: Role(rawValue: try columns.text(1)) ?? .read, label: try columns.optionalText(2),
                createdAtMillis: try columns.int64(3), revokedAtMillis: try columns.optionalInt64(4))
        }
    }
}
