import Hummingbird

/// A route as the server registers it, e.g. `POST /v1/receipts` (path parameters as `{name}`).
public struct RouteDescription: Sendable, Hashable, CustomStringConvertible {
    public var method: String
    public var path: String
    public var description: String { "\(method) \(path)" }
}

/// Registers routes on a router and remembers them, so that a wrong method on a known path answers 405
/// with `Allow` (Hummingbird alone answers 404), and so tests can check the OpenAPI document covers them.
final class RouteTable<Context: RequestContext> {
    let router: Router<Context>
    private(set) var routes: [RouteDescription] = []

    init(router: Router<Context>) {
        self.router = router
    }

    func on(
        _ method: HTTPRequest.Method, _ path: String,
        use handler: @escaping @Sendable (Request, Context) async throws -> Response
    ) {
        router.on(RouterPath(path), method: method, use: handler)
        routes.append(RouteDescription(method: method.rawValue, path: Self.openAPIPath(path)))
    }

    /// Adds a 405 responder for every common method a registered path does not handle.
    func addMethodNotAllowedResponders() {
        let byPath = Dictionary(grouping: routes, by: \.path)
        let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete]
        for (path, routes) in byPath {
            let allowed = routes.map(\.method)
            let allow = allowed.joined(separator: ", ")
            // HEAD of a GET route is answered by the router itself (autoGenerateHeadEndpoints).
            for method in methods where !allowed.contains(method.rawValue) && !(method == .head && allowed.contains("GET")) {
                router.on(RouterPath(Self.routerPath(path)), method: method) { request, _ -> Response in
                    throw APIError(
                        .methodNotAllowed, "method_not_allowed", "\(request.method.rawValue) is not allowed here; use \(allow)",
                        headers: [.allow: allow])
                }
            }
        }
    }

    /// `/v1/pushes/:push_id` as OpenAPI writes it: `/v1/pushes/{push_id}`.
    static func openAPIPath(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { part in
            part.hasPrefix(":") ? "{\(part.dropFirst())}" : String(part)
        }.joined(separator: "/")
    }

    static func routerPath(_ openAPIPath: String) -> String {
        openAPIPath.split(separator: "/", omittingEmptySubsequences: false).map { part in
            part.hasPrefix("{") ? ":\(part.dropFirst().dropLast())" : String(part)
        }.joined(separator: "/")
    }
}
