import Hummingbird
import HummingbirdCore
import PushTallyCore

/// Checks bearer tokens against the store: 401 for missing, unknown or revoked, 403 for the wrong role.
struct Authorizer: Sendable {
    let store: any TokenStore
    /// How long its store work may take (``ServerConfiguration/storeDeadlines``).
    var deadlines = StoreDeadlines()

    /// Throws unless the request carries a bearer token whose role grants `role` (only the ingest pipeline also
    /// takes `?key=`, for clients that cannot set headers).
    func require(_ role: Role, _ request: Request) async throws {
        try await require(role, headers: request.headers, queryKey: nil)
    }

    /// Throws unless the `Authorization` header (or else `queryKey`) holds a token whose role grants `role`.
    func require(_ role: Role, headers: HTTPFields, queryKey: String?) async throws {
        try await require(anyOf: [role], headers: headers, queryKey: queryKey)
    }

    /// Throws unless the token's role grants one of `roles`.
    func require(anyOf roles: [Role], headers: HTTPFields, queryKey: String?) async throws {
        let names = roles.map(\.rawValue).joined(separator: " or ")
        guard let token = Self.token(in: headers, queryKey: queryKey) else {
            throw APIError(
                .unauthorized, "unauthorized", "a bearer token with the \(names) role is required",
                headers: [.wwwAuthenticate: "Bearer"])
        }
        guard let granted = try await StoreDeadline.run(deadlines.authorization, { [store] in try await store.role(ofToken: token) }) else {
            throw APIError(.unauthorized, "unauthorized", "the token is unknown or revoked", headers: [.wwwAuthenticate: "Bearer"])
        }
        guard roles.contains(where: granted.grants) else {
            throw APIError(.forbidden, "forbidden", "a \(granted.rawValue) token cannot do this; it needs the \(names) role")
        }
    }

    /// Like ``require(_:_:)``, and returns the token's id (never its secret), for a log of who read what.
    func requireIdentified(_ role: Role, _ request: Request) async throws -> String {
        try await require(role, request)
        // The store accepted the token, so it has our shape and an id.
        return Self.token(in: request.headers, queryKey: nil).flatMap(TokenSecret.parse)?.id ?? "-"
    }

    /// A bearer token wins over `queryKey`; a malformed `Authorization` header is no token at all.
    static func token(in headers: HTTPFields, queryKey: String?) -> String? {
        if let header = headers[.authorization] {
            let parts = header.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
            return nil
        }
        return queryKey
    }

}
