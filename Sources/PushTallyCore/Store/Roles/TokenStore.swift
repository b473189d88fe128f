/// API tokens, stored hashed (``TokenSecret``).
public protocol TokenStore: Sendable {
    /// The role of a bearer token, `nil` when malformed, unknown or revoked.
    func role(ofToken token: String) async throws -> Role?
    /// Creates a token; the returned secret is never stored and never shown again.
    func createToken(role: Role, label: String?) async throws -> (token: String, info: TokenInfo)
    /// Whether any token that is not revoked exists (a fresh database has none).
    func hasActiveTokens() async throws -> Bool
    /// Every token, revoked ones included, oldest first.
    func listTokens() async throws -> [TokenInfo]
    /// Revokes a token by id (or by the full token); false when no active token matched.
    func revokeToken(_ idOrToken: String) async throws -> Bool
    /// Creates an admin token when no active one exists, once even when several collectors start together.
    func bootstrapAdminToken(label: String) async throws -> String?
}
