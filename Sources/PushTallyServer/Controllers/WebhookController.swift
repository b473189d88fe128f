import Foundation
import Hummingbird
import PushTallyCore

/// Webhook endpoints (``APIRoute/createWebhook`` and its siblings), admin only.
struct WebhookController<Context: RequestContext>: Sendable {
    let store: any WebhookStore & ReportReader
    let authorizer: Authorizer
    let reader: BodyReader
    let urlGuard: WebhookURLGuard

    func register(on routes: RouteTable<Context>) {
        routes.on(.createWebhook, authorizedBy: authorizer) { request, _ in try await self.create(request) }
        routes.on(.listWebhooks, authorizedBy: authorizer) { _, _ in try await self.list() }
        routes.on(.deleteWebhook, authorizedBy: authorizer) { _, context in try await self.delete(context) }
        routes.on(.webhookDeliveries, authorizedBy: authorizer) { request, context in try await self.deliveries(request, context) }
        routes.on(.replayWebhook, authorizedBy: authorizer) { request, context in try await self.replay(request, context) }
    }

    func create(_ request: Request) async throws -> Response {
        let webhook = try WebhookRequest.parse(try JSONValue.parse(try await readJSON(request, reader: reader)))
        _ = try await urlGuard.approvedAddress(for: webhook.url)
        let now = store.configuration.clock()
        let endpoint = WebhookEndpoint(
            id: WebhookID.make("wh", millis: now), url: webhook.url.url, events: webhook.events,
            description: webhook.description, createdAtMillis: now, status: .active)
        let secret = WebhookSecret.generate()
        try await store.createWebhook(endpoint, secret: secret)
        return .jsonText(WebhookJSON.endpoint(endpoint, secret: secret), status: .created)
    }

    func list() async throws -> Response {
        let endpoints = try await store.webhooks()
        return .jsonText("{\"webhooks\":[" + endpoints.map { WebhookJSON.endpoint($0) }.joined(separator: ",") + "]}")
    }

    func delete(_ context: Context) async throws -> Response {
        let id = try pathParameter("id", context)
        guard try await store.deleteWebhook(id: id) else { throw Self.notFound(id) }
        return Response(status: .noContent)
    }

    func deliveries(_ request: Request, _ context: Context) async throws -> Response {
        let id = try pathParameter("id", context)
        let query = try QueryValues(request)
        var status: WebhookDeliveryStatus?
        if let text = query["status"] {
            guard let parsed = WebhookDeliveryStatus(rawValue: text) else {
                throw FieldError("bad_value", "status must be pending, delivered or failed", field: "status")
            }
            status = parsed
        }
        let limit = try query.limit(default: 100, maximum: 1000)
        guard try await store.webhooks().contains(where: { $0.id == id }) else { throw Self.notFound(id) }
        let deliveries = try await store.deliveries(webhookID: id, status: status, limit: limit)
        return .jsonText("{\"deliveries\":[" + deliveries.map(WebhookJSON.delivery).joined(separator: ",") + "]}")
    }

    func replay(_ request: Request, _ context: Context) async throws -> Response {
        let id = try pathParameter("id", context)
        let query = try QueryValues(request)
        var since = try query["since"].map { text throws(FieldError) in try Timestamp.millis(from: .string(text), field: "since") }
        let body = try await reader.read(request)
        if body.readableBytes > 0 {
            guard case .object(let object) = try JSONValue.parse(Data(body.readableBytesView)) else {
                throw FieldError("malformed_json", "the body must be a JSON object such as {\"since\": \"2026-11-20T00:00:00Z\"}")
            }
            if let unknown = object.keys.sorted().first(where: { $0 != "since" }) {
                throw FieldError("unknown_field", "\(unknown) is not a replay field (since)", field: unknown)
            }
            if let value = object["since"]?.rawValue {
                guard since == nil else { throw FieldError("conflict", "give since in the query or the body, not both", field: "since") }
                since = try Timestamp.millis(from: value, field: "since")
            }
        }
        guard let since else { throw FieldError.missing("since") }
        guard try await store.webhooks().contains(where: { $0.id == id }) else { throw Self.notFound(id) }
        let replayed = try await store.replay(webhookID: id, sinceMillis: since, now: store.configuration.clock())
        return .jsonText("{\"replayed\":\(replayed),\"since\":\(JSONText.quoted(Timestamp.iso8601(millis: since)))}", status: .accepted)
    }

    static func notFound(_ id: String) -> APIError {
        APIError(.notFound, "not_found", "no webhook \(id)", field: "id")
    }
}
