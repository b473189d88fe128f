import HTTPTypes
import Hummingbird

/// Turns the router's 404 for a known path into 405 with `Allow`, whatever the method: TRACE, OPTIONS,
/// CONNECT and WebDAV verbs included (a route per method could only ever list some of them).
///
/// It is added after every route, so it wraps only the router's not-found answer; a route's own 404 (an
/// unknown push, say) is an ``APIError`` and never reaches it. Method tokens the HTTP/1 parser itself does not
/// know never reach the router: the parser refuses them with 400 and closes the connection.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The registered routes, grouped by path in registration order, with their `Allow` value.
    private let paths: [(route: APIRoute, allow: String)]

    init(routes: [RouteDescription]) {
        var paths: [(route: APIRoute, allow: String)] = []
        for route in APIRoute.allCases where routes.contains(route.routeDescription) {
            guard !paths.contains(where: { $0.route.path == route.path }) else { continue }
            let allow = routes.filter { $0.path == route.routeDescription.path }.map(\.method)
            paths.append((route, allow.joined(separator: ", ")))
        }
        self.paths = paths
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            guard let (route, allow) = allowed(for: request) else { throw error }
            // Counted under the route's path, as when the router answered 405 itself.
            context.coreContext.endpointPath.value = RouterPath(route.path).description
            throw APIError(
                .methodNotAllowed, "method_not_allowed", "\(request.method.rawValue) is not allowed here; use \(allow)",
                headers: [.allow: allow])
        }
    }

    /// The route whose path the request names, and the methods it takes.
    func allowed(for request: Request) -> (APIRoute, String)? {
        let path = request.uri.path
        return paths.first { $0.route.matches(path: path[...]) }
    }
}
