import HTTPTypes
import Hummingbird

/// `GET /dashboard/`: the web dashboard for marketers, shipped inside the binary (see `scripts/embed-dashboard`).
///
/// Its data comes from the report routes of ``APIRoute``, with the user's token; a test holds every `/v1/` path
/// the page's script calls to a `GET` route of that table that takes a `read` token.
struct DashboardController<Context: RequestContext>: Sendable {
    func register(on routes: RouteTable<Context>) {
        routes.on(.dashboard) { _, _ in try Self.asset("index.html") }
        routes.on(.dashboardFile) { _, context in try Self.asset(try pathParameter("file", context)) }
    }

    static func asset(_ name: String) throws -> Response {
        guard let file = DashboardAssets.files[name] else {
            throw APIError(.notFound, "not_found", "no dashboard file \(name)")
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: file.contentType,
                .cacheControl: "no-cache",
                // Everything is same-origin and there is no inline script: nothing else may run.
                .contentSecurityPolicy: "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; frame-ancestors 'none'",
                .xContentTypeOptions: "nosniff",
                HTTPField.Name("Referrer-Policy")!: "no-referrer",
            ],
            body: .init(byteBuffer: ByteBuffer(string: file.body + "\n")))
    }
}
