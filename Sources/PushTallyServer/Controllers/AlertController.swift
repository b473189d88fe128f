import Hummingbird
import PushTallyCore

/// Alert rules (``APIRoute/createAlert`` and its siblings): admins define them, readers see them.
struct AlertController<Context: RequestContext>: Sendable {
    let store: any AlertStore & ReportReader
    let authorizer: Authorizer
    let reader: BodyReader
    /// How long its store work may take (``ServerConfiguration/storeDeadlines``).
    var deadlines = StoreDeadlines()

    func register(on routes: RouteTable<Context>) {
        routes.on(.createAlert, authorizedBy: authorizer) { request, _ in try await self.create(request) }
        routes.on(.listAlerts, authorizedBy: authorizer) { _, _ in try await self.list() }
        routes.on(.deleteAlert, authorizedBy: authorizer) { _, context in try await self.delete(context) }
        routes.on(.alertHistory, authorizedBy: authorizer) { request, context in try await self.history(request, context) }
    }

    func create(_ request: Request) async throws -> Response {
        let rule = try AlertRule.parse(try JSONValue.parse(try await readJSON(request, reader: reader)))
        let alert = Alert.new(rule, at: store.configuration.clock())
        try await StoreDeadline.run(deadlines.request) { [store] in try await store.createAlert(alert) }
        return .jsonText(alert.json, status: .created)
    }

    func list() async throws -> Response {
        let alerts = try await StoreDeadline.run(deadlines.request) { [store] in try await store.alerts() }
        return .jsonText("{\"alerts\":[" + alerts.map(\.json).joined(separator: ",") + "]}")
    }

    func delete(_ context: Context) async throws -> Response {
        let id = try pathParameter("id", context)
        guard try await StoreDeadline.run(deadlines.request, { [store] in try await store.deleteAlert(id: id) }) else {
            throw Self.notFound(id)
        }
        return Response(status: .noContent)
    }

    func history(_ request: Request, _ context: Context) async throws -> Response {
        let id = try pathParameter("id", context)
        let limit = try QueryValues(request).limit(default: 100, maximum: 1000)
        guard let history = try await StoreDeadline.run(deadlines.request, { [store] in try await store.alertHistory(id: id, limit: limit) })
        else { throw Self.notFound(id) }
        return .jsonText("{\"history\":[" + history.map(WebhookJSON.transition).joined(separator: ",") + "]}")
    }

    static func notFound(_ id: String) -> APIError {
        APIError(.notFound, "not_found", "no alert \(id)", field: "id")
    }
}
