import Foundation
import PostgresNIO
import PushTallyCore

extension PostgresStore {
    /// Creates a token and returns it; this is the only time the secret is ever seen.
    public func createToken(role: Role, label: String? = nil) async throws -> (token: String, info: TokenInfo) {
        let (token, id, hash) = TokenSecret.generate()
        let now = configuration.clock()
        try await write(
            """
            INSERT INTO tokens (id, role, secret_hash, label, created_at)
            VALUES (\(id), \(role.rawValue), \(ByteBuffer(bytes: hash)), \(label), \(now))
            """)
        return (token, TokenInfo(id: id, role: role, label: label, createdAtMillis: now, revokedAtMillis: nil))
    }

    /// Creates an admin token unless an active one exists; collectors starting together create one between them.
    public func bootstrapAdminToken(label: String) async throws -> String? {
        let (token, id, hash) = TokenSecret.generate()
        let now = configuration.clock()
        let logger = logger
        return try await transaction { connection in
            try await connection.run("SELECT pg_advisory_xact_lock(\(PostgresSchema.migrationLock))", logger: logger)
            let inserted = try await connection.run(
                """
                INSERT INTO tokens (id, role, secret_hash, label, created_at)
                SELECT \(id), \(Role.admin.rawValue), \(ByteBuffer(bytes: hash)), \(label), \(now)
                WHERE NOT EXISTS (SELECT 1 FROM tokens WHERE revoked_at IS NULL)
                RETURNING id
                """, logger: logger)
            if !inserted.isEmpty { return token }
            return nil
        }
    }

    /// Every token, revoked ones included, oldest first.
    public func listTokens() async throws -> [TokenInfo] {
        var tokens: [TokenInfo] = []
        for (id, role, label, created, revoked) in try await query(
            "SELECT id, role, label, created_at, revoked_at FROM tokens ORDER BY created_at, id"
        ).decode((String, String, String?, Int64, Int64?).self) {
            tokens.append(TokenInfo(
                id: id, role: Role(rawValue: role) ?? .read, label: label, createdAtMillis: created, revokedAtMillis: revoked))
        }
        return tokens
    }

    public func hasActiveTokens() async throws -> Bool {
        for exists in try await query("SELECT EXISTS (SELECT 1 FROM tokens WHERE revoked_at IS NULL)").decode(Bool.self) {
            return exists
        }
        return false
    }

    /// Revokes a token by id (or by the full token); returns false when no active token matched.
    public func revokeToken(_ idOrToken: String) async throws -> Bool {
        let id = TokenSecret.parse(idOrToken)?.id ?? idOrToken
        let now = configuration.clock()
        for _ in try await write(
            "UPDATE tokens SET revoked_at = \(now) WHERE id = \(id) AND revoked_at IS NULL RETURNING id"
        ) {
            return true
        }
        return false
    }

    /// The role of a presented token, or `nil` when it is malformed, unknown or revoked.
    public func role(ofToken token: String) async throws -> Role? {
        guard let (id, secret) = TokenSecret.parse(token) else { return nil }
        let presented = TokenSecret.hash(secret)
        for (role, hash) in try await query(
            "SELECT role, secret_hash FROM tokens WHERE id = \(id) AND revoked_at IS NULL"
        ).decode((String, ByteBuffer).self) {
            guard TokenSecret.constantTimeEquals(Data(buffer: hash), presented) else { return nil }
            return Role(rawValue: role)
        }
        return nil
    }
}
