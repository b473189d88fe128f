import Hummingbird
import PushTallyCore

/// Checks bearer tokens against the store: 401 for missing, unknown or revoked, 403 for the wrong role.
struct Authorizer: Sendable {
    let store: any PushTallyStore

    /// Throws unless the request carries a token whose role grants `role`.
    /// - Parameter allowQueryKey: accept `?key=` for ingest clients that cannot set headers.
    func require(_ role: Role, _ request: Request, allowQueryKey: Bool = false) async throws {
        guard let token = Self.token(in: request, allowQueryKey: allowQueryKey) else {
            throw APIError(
                .unauthorized, "unauthorized", "a bearer token with the \(role.rawValue) role is required",
                headers: [.wwwAuthenticate: "Bearer"])
        }
        guard let granted = try await store.role(ofToken: token) else {
            throw APIError(.unauthorized, "unauthorized", "the token is unknown or revoked", headers: [.wwwAuthenticate: "Bearer"])
        }
        guard granted.grants(role) else {
            throw APIError(.forbidden, "forbidden", "a \(granted.rawValue) token cannot do this; it needs the \(role.rawValue) role")
        }
    }

    static func token(in request: Request, allowQueryKey: Bool) -> String? {
        if let header = request.headers[.authorization] {
            let parts = header.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
            return nil
        }
        if allowQueryKey, let key = request.uri.queryParameters["key"] {
            return String(key)
        }
        return nil
    }
}
