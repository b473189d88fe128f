import Foundation

extension Queries {
    /// The role and secret hash of an active token, by id (no row when it is unknown or revoked).
    package struct SelectActiveToken: RowQuery {
        package let id: String

        package init(id: String) { self.id = id }

        package func sql(_ dialect: SQLDialect) -> String {
            "SELECT role, secret_hash FROM tokens WHERE id = ? AND revoked_at IS NULL"
        }

        package var values: [QueryValue] { [.text(id)] }

        package func row(_ columns: some QueryRow) throws -> (role: String, secretHash: Data) {
            (try columns.text(0), try columns.bytes(1))
        }
    }
}
