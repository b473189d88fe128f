import Foundation
import Hummingbird
import PushTallyCore
import PushTallyUseCases

/// Webhook endpoints (``APIRoute/createWebhook`` and its siblings), admin only. What the CLI does too
/// (create, list, deliveries) is ``WebhookManagement``'s; this reads the requests and writes the responses.
struct WebhookController<Context: RequestContext>: Sendable {
    let store: any WebhookStore & ReportReader
    let authorizer: Authorizer
    let reader: BodyReader
    let management: WebhookManagement
    /// How long its store work may take (``ServerConfiguration/storeDeadlines``).
    var deadlines = StoreDeadlines()

    func register(on routes: RouteTable<Context>) {
        routes.on(.createWebhook, authorizedBy: authorizer) { request, _ in try await self.create(request) }
        routes.on(.listWebhooks, authorizedBy: authorizer) { _, _ in try await self.list() }
        routes.on(.deleteWebhook, authorizedBy: authorizer) { _, context in try await self.delete(context) }
        routes.on(.webhookDeliveries, authorizedBy: authorizer) { request, context in try await self.deliveries(request, context) }
        routes.on(.replayWebhook, authorizedBy: authorizer) { request, context in try await self.replay(request, context) }
    }

    func create(_ request: Request) async throws -> Response {
        let body = try await readJSON(request, reader: reader)
        return .jsonText(try await StoreDeadline.run(deadlines.request) { [management] in try await management.create(body: body) }, status: .created)
    }

    func list() async throws -> Response {
        .jsonText(try await StoreDeadline.run(deadlines.request) { [management] in try await management.listJSON() })
    }

    func delete(_ context: Context) async throws -> Response {
        let id = try pathParameter("id", context)
        guard try await StoreDeadline.run(deadlines.request, { [store] in try await store.deleteWebhook(id: id) }) else {
            throw Self.notFound(id)
        }
        return Response(status: .noContent)
    }

    func deliveries(_ request: Request, _ context: Context) async throws -> Response {
        let id = try pathParameter("id", context)
        let query = try QueryValues(request)
        let status = try query["status"].map { text throws(FieldError) in try WebhookDeliveryStatus(parsing: text) }
        let limit = try query.limit(default: WebhookManagement.defaultDeliveryLimit, maximum: WebhookManagement.maxDeliveryLimit)
        let found = try await StoreDeadline.run(deadlines.request) { [management] in
            try await management.deliveriesJSON(webhookID: id, status: status, limit: limit)
        }
        guard let json = found else {
            throw Self.notFound(id)
        }
        return .jsonText(json)
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
        let replayed = try await StoreDeadline.run(deadlines.request) { [store] () async throws -> Int? in
            guard try await store.webhooks().contains(where: { $0.id == id }) else { return nil }
            return try await store.replay(webhookID: id, sinceMillis: since, now: store.configuration.clock())
        }
        guard let replayed else { throw Self.notFound(id) }
        return .jsonText("{\"replayed\":\(replayed),\"since\":\(JSONText.quoted(Timestamp.iso8601(millis: since)))}", status: .accepted)
    }

    static func notFound(_ id: String) -> APIError {
        APIError(.notFound, "not_found", "no webhook \(id)", field: "id")
    }
}
