import Foundation
import GRDB
import PushTallyCore

extension SQLiteStore: TokenStore {
    /// Creates a token and returns it; this is the only time the secret is ever seen.
    public func createToken(role: Role, label: String? = nil) async throws -> (token: String, info: TokenInfo) {
        let (token, id, hash) = TokenSecret.generate()
        let now = configuration.clock()
        _ = try await write { db in
            try db.run(Queries.InsertToken(id: id, role: role, secretHash: hash, label: label, createdAt: now))
        }
        return (token, TokenInfo(id: id, role: role, label: label, createdAtMillis: now, revokedAtMillis: nil))
    }

    /// Every token, revoked ones included, oldest first.
    public func listTokens() async throws -> [TokenInfo] {
        try await read { db in try db.fetch(Queries.SelectTokens()) }
    }

    /// Whether any token that is not revoked exists (a fresh database has none).
    public func hasActiveTokens() async throws -> Bool {
        try await read { db in try db.fetch(Queries.SelectActiveTokensExist()).first ?? false }
    }

    /// Revokes a token by id (or by the full token); returns false when no active token matched.
    public func revokeToken(_ idOrToken: String) async throws -> Bool {
        let id = TokenSecret.parse(idOrToken)?.id ?? idOrToken
        let now = configuration.clock()
        return try await write { db in try db.run(Queries.RevokeToken(id: id, revokedAt: now)) > 0 }
    }

    /// The role of a presented token, or `nil` when it is malformed, unknown or revoked.
    public func role(ofToken token: String) async throws -> Role? {
        guard let (id, secret) = TokenSecret.parse(token) else { return nil }
        let presented = TokenSecret.hash(secret)
        let stored = try await read { db in try db.fetch(Queries.SelectActiveToken(id: id)).first }
        guard let stored, TokenSecret.constantTimeEquals(stored.secretHash, presented) else { return nil }
        return Role(rawValue: stored.role)
    }

    /// Creates an admin token unless an active one exists, in one statement.
    public func bootstrapAdminToken(label: String) async throws -> String? {
        let (token, id, hash) = TokenSecret.generate()
        let now = configuration.clock()
        let inserted = try await write { db in
            try db.run(Queries.InsertFirstAdminToken(id: id, secretHash: hash, label: label, createdAt: now))
        }
        return inserted > 0 ? token : nil
    }
}
