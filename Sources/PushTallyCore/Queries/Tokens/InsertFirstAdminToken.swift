import Foundation

extension Queries {
    /// Stores an admin token unless an active token exists; returns its id when it stored it.
    package struct InsertFirstAdminToken: RowQuery {
        package let id: String
        package let secretHash: Data
        package let label: String?
        package let createdAt: Int64

        package init(id: String, secretHash: Data, label: String?, createdAt: Int64) {
            (self.id, self.secretHash, self.label, self.createdAt) = (id, secretHash, label, createdAt)
        }

        package func sql(_ dialect: SQLDialect) -> String {
            """
            INSERT INTO tokens (id, role, secret_hash, label, created_at)
            SELECT ?, ?, ?, ?, ?
            WHERE NOT EXISTS (SELECT 1 FROM tokens WHERE revoked_at IS NULL)
            RETURNING id
            """
        }

        package var values: [QueryValue] {
            [.text(id), .text(Role.admin.rawValue), .bytes(secretHash), .text(label), .integer(createdAt)]
        }

        package func row(_ columns: some QueryRow) throws -> String { try columns.text(0) }
    }
}
