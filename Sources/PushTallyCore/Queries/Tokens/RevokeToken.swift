extension Queries {
    /// Revokes an active token; returns a row when it did.
    package struct RevokeToken: StoreQuery {
        package let id: String
        package let revokedAt: Int64

        package init(id: String, revokedAt: Int64) {
            (self.id, self.revokedAt) = (id, revokedAt)
        }

        package func sql(_ dialect: SQLDialect) -> String {
            "UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL RETURNING id"
        }

        package var values: [QueryValue] { [.integer(revokedAt), .text(id)] }
    }
}
