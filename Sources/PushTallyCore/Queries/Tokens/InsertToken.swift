import Foundation

extension Queries {
    /// Stores a new token; its secret only as a hash.
    package struct InsertToken: StoreQuery {
        package let id: String
        package let role: Role
        package let secretHash: Data
        package let label: String?
        package let createdAt: Int64

        package init(id: String, role: Role, secretHash: Data, label: String?, createdAt: Int64) {
            (self.id, self.role, self.secretHash, self.label, self.createdAt) = (id, role, secretHash, label, createdAt)
        }

        package func sql(_ dialect: SQLDialect) -> String {
            "INSERT INTO tokens (id, role, secret_hash, label, created_at) VALUES (?, ?, ?, ?, ?)"
        }

        package var values: [QueryValue] {
            [.text(id), .text(role.rawValue), .bytes(secretHash), .text(label), .integer(createdAt)]
        }
    }
}
