import Foundation
import PushTallyCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Webhook endpoints (admin token) and alert rules (admin to change, read to list).
extension PushTallyAPIClient {
    /// `POST /v1/webhooks`: the answer carries the signing secret, which no later call shows.
    public func createWebhook(_ definition: WebhookDefinition) async throws -> APIAnswer<WebhookInfo> {
        try APIAnswer(json: try await send("POST", "/v1/webhooks", body: Self.encoded(definition)))
    }

    /// `GET /v1/webhooks`, oldest first, without secrets.
    public func webhooks() async throws -> APIAnswer<[WebhookInfo]> {
        try APIAnswer(json: try await send("GET", "/v1/webhooks"), list: \WebhookList.webhooks)
    }

    /// `DELETE /v1/webhooks/{id}`: the endpoint and its pending deliveries.
    public func deleteWebhook(id: String) async throws {
        _ = try await send("DELETE", "/v1/webhooks/" + Self.segment(id))
    }

    /// `GET /v1/webhooks/{id}/deliveries`, newest first.
    /// - Parameters:
    ///   - status: `pending`, `delivered` or `failed`; all when `nil`.
    ///   - limit: at most this many (the server's default, 100, when `nil`).
    public func webhookDeliveries(id: String, status: String? = nil, limit: Int? = nil) async throws -> APIAnswer<[WebhookDeliveryInfo]> {
        var query: [(String, String)] = []
        if let status { query.append(("status", status)) }
        if let limit { query.append(("limit", String(limit))) }
        let path = "/v1/webhooks/" + Self.segment(id) + "/deliveries"
        return try APIAnswer(json: try await send("GET", path, query: query), list: \DeliveryList.deliveries)
    }

    /// `POST /v1/alerts`.
    public func createAlert(_ definition: AlertDefinition) async throws -> APIAnswer<AlertInfo> {
        try APIAnswer(json: try await send("POST", "/v1/alerts", body: Self.encoded(definition)))
    }

    /// `GET /v1/alerts`, oldest first, each with its state.
    public func alerts() async throws -> APIAnswer<[AlertInfo]> {
        try APIAnswer(json: try await send("GET", "/v1/alerts"), list: \AlertList.alerts)
    }

    /// `DELETE /v1/alerts/{id}`: the rule and its history.
    public func deleteAlert(id: String) async throws {
        _ = try await send("DELETE", "/v1/alerts/" + Self.segment(id))
    }

    private func send(_ method: String, _ path: String, query: [(String, String)] = [], body: Data? = nil) async throws -> String {
        var components = URLComponents(url: url(path), resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.percentEncodedQuery = FormBody.encode(query) }
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (status, data) = try await exchange(request)
        try Self.check(status, data)
        return String(decoding: data, as: UTF8.self)
    }

    private static func encoded(_ body: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(body)
    }

    /// An id as one path segment: a `/` or `?` in it cannot reach another route.
    private static func segment(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? id
    }
}
