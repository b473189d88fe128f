import Foundation
import PostgresNIO
import PushTallyCore

extension PostgresStore {
    /// Creates a token and returns it; this is the only time the secret is ever seen.
    public func createToken(role: Role, label: String? = nil) async throws -> (token: String, info: TokenInfo) {
        let (token, id, hash) = TokenSecret.generate()
        let now = configuration.clock()
        try await write(Queries.InsertToken(id: id, role: role, secretHash: hash, label: label, createdAt: now))
        return (token, TokenInfo(id: id, role: role, label: label, createdAtMillis: now, revokedAtMillis: nil))
    }

    /// Creates an admin token unless an active one exists; collectors starting together create one between them.
    public func bootstrapAdminToken(label: String) async throws -> String? {
        let (token, id, hash) = TokenSecret.generate()
        let now = configuration.clock()
        let logger = logger
        return try await transaction { connection in
            // Under READ COMMITTED, two collectors' `NOT EXISTS` would each see no token: the lock orders them.
            try await connection.run(Queries.AdvisoryTransactionLock(key: PostgresSchema.migrationLock), logger: logger)
            let inserted = try await connection.run(
                Queries.InsertFirstAdminToken(id: id, secretHash: hash, label: label, createdAt: now), logger: logger)
            return inserted > 0 ? token : nil
        }
    }

    /// Every token, revoked ones included, oldest first.
    public func listTokens() async throws -> [TokenInfo] {
        try await fetch(Queries.SelectTokens())
    }

    public func hasActiveTokens() async throws -> Bool {
        try await fetch(Queries.SelectActiveTokensExist()).first ?? false
    }

    /// Revokes a token by id (or by the full token); returns false when no active token matched.
    public func revokeToken(_ idOrToken: String) async throws -> Bool {
        let id = TokenSecret.parse(idOrToken)?.id ?? idOrToken
        return try await write(Queries.RevokeToken(id: id, revokedAt: configuration.clock())) > 0
    }

    /// The role of a presented token, or `nil` when it is malformed, unknown or revoked.
    public func role(ofToken token: String) async throws -> Role? {
        guard let (id, secret) = TokenSecret.parse(token) else { return nil }
        let presented = TokenSecret.hash(secret)
        guard let stored = try await fetch(Queries.SelectActiveToken(id: id)).first,
            TokenSecret.constantTimeEquals(stored.secretHash, presented)
        else { return nil }
        return Role(rawValue: stored.role)
    }
}
