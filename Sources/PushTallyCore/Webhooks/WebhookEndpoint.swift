/// Where an endpoint stands: receivers that answer `410 Gone` are disabled, ones that failed for a whole
/// retry window are failing (still sent to, so they recover by themselves once they answer 2xx).
public enum WebhookEndpointStatus: String, Sendable, Hashable, Codable {
    case active, failing, disabled
}

/// A receiver of webhook messages, as listed: never its secret.
public struct WebhookEndpoint: Sendable, Hashable {
    /// `wh_` and 28 hex digits (12 of creation time, 16 random).
    public var id: String
    public var url: String
    /// The event types it receives, in ``WebhookEventType`` order.
    public var events: [WebhookEventType]
    public var description: String?
    public var createdAtMillis: Int64
    public var status: WebhookEndpointStatus

    public init(
        id: String, url: String, events: [WebhookEventType], description: String?, createdAtMillis: Int64,
        status: WebhookEndpointStatus
    ) {
        self.id = id
        self.url = url
        self.events = events
        self.description = description
        self.createdAtMillis = createdAtMillis
        self.status = status
    }

    /// The stored form of ``events``: the raw values, comma separated.
    package var eventList: String { events.map(\.rawValue).joined(separator: ",") }

    package static func events(fromList list: String) -> [WebhookEventType] {
        list.split(separator: ",").compactMap { WebhookEventType(rawValue: String($0)) }.sorted()
    }
}

/// What a delivery needs of its endpoint: where, how to sign, and what it receives.
package struct WebhookSubscription: Sendable, Hashable {
    package var endpointID: String
    package var events: Set<WebhookEventType>

    package init(endpointID: String, events: Set<WebhookEventType>) {
        self.endpointID = endpointID
        self.events = events
    }
}
