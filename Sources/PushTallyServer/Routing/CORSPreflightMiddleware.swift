import HTTPTypes
import Hummingbird

/// Answers a browser's preflight (`OPTIONS` with an `Origin`) on the ingest routes when `serve --cors-origin`
/// lists origins: `204` with the allowed method, headers and max age for a listed origin, a JSON `403` without
/// CORS headers for any other.
///
/// Like ``MethodNotAllowedMiddleware``, it is added after every route and so wraps only the router's not-found
/// answer: an `OPTIONS` without `Origin`, or on any other route, goes on to the `405` it always got. Both
/// ingest paths send preflights here, since the fast path takes only the routes' `POST`s.
struct CORSPreflightMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: CORSPolicy

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .options, let route = Self.ingestRoute(request.uri.path) else {
            return try await next(request, context)
        }
        switch policy.verdict(request.headers) {
        case .notCrossOrigin:
            return try await next(request, context)
        case .allowed(let origin):
            context.coreContext.endpointPath.value = RouterPath(route.path).description
            return Response(status: .noContent, headers: CORSPolicy.preflightHeaders(for: origin))
        case .refused:
            context.coreContext.endpointPath.value = RouterPath(route.path).description
            throw CORSPolicy.refusal
        }
    }

    static func ingestRoute(_ path: String) -> APIRoute? {
        APIRoute.ingestRoutes.first { $0.path == path }
    }
}
