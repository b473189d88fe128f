import Foundation

/// An answer decoded into its type, with the server's JSON as it came (for `--json`, printed unchanged).
public struct APIAnswer<Value: Sendable>: Sendable {
    public var value: Value
    /// The body exactly as the server (or the CLI's local path, rendering it the same way) wrote it.
    public var json: String

    public init(value: Value, json: String) {
        self.value = value
        self.json = json
    }
}

/// `POST /v1/webhooks`'s body: where to send and which event types.
public struct WebhookDefinition: Codable, Sendable, Hashable {
    public var url: String
    public var events: [String]
    public var description: String?

    public init(url: String, events: [String], description: String? = nil) {
        self.url = url
        self.events = events
        self.description = description
    }
}

/// A webhook endpoint as the API shows it; `secret` only in the answer to its creation.
public struct WebhookInfo: Codable, Sendable, Hashable {
    public var id: String
    public var url: String
    public var events: [String]
    public var description: String?
    /// `active`, `failing` or `disabled`.
    public var status: String
    public var createdAt: String
    public var secret: String?

    enum CodingKeys: String, CodingKey {
        case id, url, events, description, status, secret
        case createdAt = "created_at"
    }
}

/// One message's delivery to one endpoint, as `GET /v1/webhooks/{id}/deliveries` lists it.
public struct WebhookDeliveryInfo: Codable, Sendable, Hashable {
    public var messageID: String
    public var type: String
    /// `pending`, `delivered` or `failed`.
    public var status: String
    public var attempts: Int
    public var lastStatus: Int?
    public var lastError: String?
    public var createdAt: String
    public var lastAttemptAt: String?
    public var nextAttemptAt: String?
    public var deliveredAt: String?

    enum CodingKeys: String, CodingKey {
        case type, status, attempts
        case messageID = "message_id"
        case lastStatus = "last_status"
        case lastError = "last_error"
        case createdAt = "created_at"
        case lastAttemptAt = "last_attempt_at"
        case nextAttemptAt = "next_attempt_at"
        case deliveredAt = "delivered_at"
    }
}

/// `POST /v1/alerts`'s body. Durations are text such as `30m`; `threshold` is a fraction (0.2 is 20 %).
public struct AlertDefinition: Codable, Sendable, Hashable {
    public var name: String
    public var kind: String
    public var window: String
    public var threshold: Double
    public var minSent: Int64
    public var grace: String?
    public var campaign: String?
    public var app: String?

    public init(
        name: String, kind: String, window: String, threshold: Double, minSent: Int64, grace: String? = nil,
        campaign: String? = nil, app: String? = nil
    ) {
        self.name = name
        self.kind = kind
        self.window = window
        self.threshold = threshold
        self.minSent = minSent
        self.grace = grace
        self.campaign = campaign
        self.app = app
    }

    enum CodingKeys: String, CodingKey {
        case name, kind, window, threshold, grace, campaign, app
        case minSent = "min_sent"
    }
}

/// An alert rule and where it stands, as `GET /v1/alerts` lists it.
public struct AlertInfo: Codable, Sendable, Hashable {
    public var id: String
    public var name: String
    public var kind: String
    public var window: String
    public var threshold: Double
    public var minSent: Int64
    public var grace: String
    public var campaign: String?
    public var app: String?
    /// `ok` or `firing`.
    public var state: String
    public var since: String
    public var value: Double?
    public var detail: String?
    public var evaluatedAt: String?
    public var createdAt: String

    enum CodingKeys: String, CodingKey {
        case id, name, kind, window, threshold, grace, campaign, app, state, since, value, detail
        case minSent = "min_sent"
        case evaluatedAt = "evaluated_at"
        case createdAt = "created_at"
    }
}

/// `{"webhooks": [...]}`, `{"deliveries": [...]}`, `{"alerts": [...]}`.
package struct WebhookList: Decodable { package var webhooks: [WebhookInfo] }
package struct DeliveryList: Decodable { package var deliveries: [WebhookDeliveryInfo] }
package struct AlertList: Decodable { package var alerts: [AlertInfo] }

extension APIAnswer where Value: Decodable {
    /// Decodes `json` as it stands (one object).
    public init(json: String) throws {
        self.init(value: try JSONDecoder().decode(Value.self, from: Data(json.utf8)), json: json)
    }
}

extension APIAnswer {
    /// Decodes a listing (`{"alerts": [...]}`) and keeps its array.
    package init<List: Decodable>(json: String, list: KeyPath<List, Value>) throws {
        self.init(value: try JSONDecoder().decode(List.self, from: Data(json.utf8))[keyPath: list], json: json)
    }
}
