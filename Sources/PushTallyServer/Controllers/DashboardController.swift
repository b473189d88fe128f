import HTTPTypes
import Hummingbird

/// `GET /dashboard/`: the web dashboard for marketers, shipped inside the binary (see `scripts/embed-dashboard`).
struct DashboardController<Context: RequestContext>: Sendable {
    func register(on routes: RouteTable<Context>) {
        // Hummingbird matches `/dashboard` and `/dashboard/` alike; the page links its files absolutely.
        routes.on(.get, "/dashboard") { _, _ in try Self.asset("index.html") }
        routes.on(.get, "/dashboard/:file") { _, context in try Self.asset(try pathParameter("file", context)) }
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
