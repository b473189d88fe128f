import Foundation
import PushTallyCore

/// Webhook endpoints as `POST /v1/webhooks`, `GET /v1/webhooks` and `GET /v1/webhooks/{id}/deliveries` manage
/// them. The server's routes and the CLI's local path (`pushtally webhooks ... --database`) both call these,
/// so the two run the same checks in the same order and answer the same JSON: `--json` prints the same text
/// whichever of them answered. Each caller keeps only its own transport: reading the body or the options,
/// and saying a refusal as a `400` or as exit code 64.
public struct WebhookManagement: Sendable {
    /// How many deliveries a listing gives when no `limit` is asked for.
    public static let defaultDeliveryLimit = 100
    /// The largest `limit` a listing takes.
    public static let maxDeliveryLimit = 1000

    private let store: any WebhookStore
    private let urlGuard: WebhookURLGuard
    private let clock: @Sendable () -> Int64

    /// - Parameters:
    ///   - urlGuard: the SSRF rule new endpoints must pass (`--allow-private-webhooks` decides its strictness).
    ///   - clock: the store's clock, for an endpoint's id and `created_at`.
    public init(store: any WebhookStore, urlGuard: WebhookURLGuard, clock: @escaping @Sendable () -> Int64) {
        self.store = store
        self.urlGuard = urlGuard
        self.clock = clock
    }

    /// Creates an endpoint from a `POST /v1/webhooks` body and its signing secret.
    /// - Returns: the endpoint's JSON, with the secret: the only answer that ever shows it.
    /// - Throws: ``FieldError`` for a body ``WebhookRequest`` refuses or a receiver the SSRF rule refuses,
    ///   before anything is stored; the store's errors.
    public func create(body: Data) async throws -> String {
        let request = try WebhookRequest.parse(try JSONValue.parse(body))
        _ = try await urlGuard.approvedAddress(for: request.url)
        // Read after the check, which may wait on DNS, so `created_at` is when the endpoint was stored.
        let now = clock()
        let endpoint = WebhookEndpoint(
            id: WebhookID.make("wh", millis: now), url: request.url.url, events: request.events,
            description: request.description, createdAtMillis: now, status: .active)
        let secret = WebhookSecret.generate()
        try await store.createWebhook(endpoint, secret: secret)
        return WebhookJSON.endpoint(endpoint, secret: secret)
    }

    /// Every endpoint, oldest first, without secrets: `{"webhooks":[...]}`.
    public func listJSON() async throws -> String {
        let endpoints = try await store.webhooks()
        return "{\"webhooks\":[" + endpoints.map { WebhookJSON.endpoint($0) }.joined(separator: ",") + "]}"
    }

    /// An endpoint's deliveries, newest first: `{"deliveries":[...]}`.
    /// - Parameter limit: from 1 to ``maxDeliveryLimit``, checked by the caller with its own argument's rules.
    /// - Returns: nil when there is no endpoint `webhookID` (an empty list would hide a mistyped id).
    public func deliveriesJSON(webhookID id: String, status: WebhookDeliveryStatus?, limit: Int) async throws -> String? {
        guard try await store.webhooks().contains(where: { $0.id == id }) else { return nil }
        let deliveries = try await store.deliveries(webhookID: id, status: status, limit: limit)
        return "{\"deliveries\":[" + deliveries.map(WebhookJSON.delivery).joined(separator: ",") + "]}"
    }
}
