import Hummingbird

/// A route as the server registers it, e.g. `POST /v1/receipts` (path parameters as `{name}`).
public struct RouteDescription: Sendable, Hashable, CustomStringConvertible {
    public var method: String
    public var path: String
    public var description: String { "\(method) \(path)" }
}

/// Registers the routes of ``APIRoute`` on a router and remembers them, so that a wrong method on a known path
/// answers 405 with `Allow` (Hummingbird alone answers 404), and so tests can check every route is served.
final class RouteTable<Context: RequestContext> {
    let router: Router<Context>
    private(set) var routes: [RouteDescription] = []

    init(router: Router<Context>) {
        self.router = router
    }

    /// Registers `route`; its handler checks the route's role itself (or the route has none). A query parameter
    /// the route does not take is refused before the handler runs (``APIRoute/checkQuery(_:)``), except on the
    /// ingest routes, whose pipeline answers every refusal itself, on both of its paths.
    func on(_ route: APIRoute, use handler: @escaping @Sendable (Request, Context) async throws -> Response) {
        guard route.eventKind == nil else { return register(route, handler) }
        register(route) { request, context in
            try route.checkQuery(request.uri.query.map { $0[...] })
            return try await handler(request, context)
        }
    }

    private func register(_ route: APIRoute, _ handler: @escaping @Sendable (Request, Context) async throws -> Response) {
        router.on(RouterPath(route.path), method: route.method, use: handler)
        routes.append(RouteDescription(method: route.method.rawValue, path: Self.openAPIPath(route.path)))
    }

    /// Registers `route` behind a bearer token of its declared role, checked before the handler runs.
    func on(
        _ route: APIRoute, authorizedBy authorizer: Authorizer,
        use handler: @escaping @Sendable (Request, Context) async throws -> Response
    ) {
        guard let role = route.role else { return on(route, use: handler) }
        on(route) { request, context in
            try await authorizer.require(role, request)
            return try await handler(request, context)
        }
    }

    /// Answers 405 with `Allow` for every method a registered path does not handle; call it after the last route.
    func addMethodNotAllowedResponders() {
        router.add(middleware: MethodNotAllowedMiddleware<Context>(routes: routes))
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

extension APIRoute {
    /// The route as ``RouteTable`` lists it and docs/openapi.yaml names it.
    var routeDescription: RouteDescription {
        RouteDescription(method: method.rawValue, path: RouteTable<BasicRequestContext>.openAPIPath(path))
    }
}
