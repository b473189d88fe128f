import Foundation
import GRDB
import PushTallyCore

extension SQLiteStore: TokenStore {
    /// Creates a token and returns it; this is the only time the secret is ever seen.
    public func createToken(role: Role, label: String? = nil) async throws -> (token: String, info: TokenInfo) {
        let (token, id, hash) = TokenSecret.generate()
        let now = configuration.clock()
        try await write { db in
            try db.execute(
                sql: "INSERT INTO tokens (id, role, secret_hash, label, created_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [id, role.rawValue, hash, label, now])
        }
        return (token, TokenInfo(id: id, role: role, label: label, createdAtMillis: now, revokedAtMillis: nil))
    }

    /// Every token, revoked ones included, oldest first.
    public func listTokens() async throws -> [TokenInfo] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT id, role, label, created_at, revoked_at FROM tokens ORDER BY created_at, id")
                .map { row in
                    TokenInfo(
                        id: row["id"], role: Role(rawValue: row["role"]) ?? .read, label: row["label"],
                        createdAtMillis: row["created_at"], revokedAtMillis: row["revoked_at"])
                }
        }
    }

    /// Whether any token that is not revoked exists (a fresh database has none).
    public func hasActiveTokens() async throws -> Bool {
        try await read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM tokens WHERE revoked_at IS NULL)") ?? false
        }
    }

    /// Revokes a token by id (or by the full token); returns false when no active token matched.
    public func revokeToken(_ idOrToken: String) async throws -> Bool {
        let id = TokenSecret.parse(idOrToken)?.id ?? idOrToken
        let now = configuration.clock()
        return try await write { db in
            try db.execute(
                sql: "UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", arguments: [now, id])
            return db.changesCount > 0
        }
    }

    /// The role of a presented token, or `nil` when it is malformed, unknown or revoked.
    public func role(ofToken token: String) async throws -> Role? {
        guard let (id, secret) = TokenSecret.parse(token) else { return nil }
        let presented = TokenSecret.hash(secret)
        return try await read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT role, secret_hash FROM tokens WHERE id = ? AND revoked_at IS NULL", arguments: [id]),
                TokenSecret.constantTimeEquals(row["secret_hash"], presented)
            else { return nil }
            return Role(rawValue: row["role"])
        }
    }

    /// One process owns a SQLite file's writer, so a check and a create cannot race.
    public func bootstrapAdminToken(label: String) async throws -> String? {
        if try await hasActiveTokens() { return nil }
        return try await createToken(role: .admin, label: label).token
    }
}
