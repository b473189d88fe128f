/// One message as queued: its body is fixed when queued, so every retry carries the same bytes and the same
/// `webhook-id` (only `webhook-timestamp` and the signature change per attempt, as the spec wants).
package struct WebhookMessage: Sendable, Hashable {
    /// `msg_` and a time-ordered hex id.
    package var id: String
    package var type: WebhookEventType
    package var createdAtMillis: Int64
    /// `{"type": ..., "timestamp": ..., "data": ...}`.
    package var body: String

    /// A message of `type` carrying `data` (already JSON).
    package init(type: WebhookEventType, data: String, at millis: Int64) {
        id = WebhookID.make("msg", millis: millis)
        self.type = type
        createdAtMillis = millis
        var json = JSONText()
        json.open()
        json.field("type", type.rawValue)
        json.field("timestamp", Timestamp.iso8601(millis: millis))
        json.field("data", json: data)
        json.close()
        body = json.text
    }

    package init(id: String, type: WebhookEventType, createdAtMillis: Int64, body: String) {
        self.id = id
        self.type = type
        self.createdAtMillis = createdAtMillis
        self.body = body
    }
}

/// A message and the endpoints it goes to: one delivery each.
package struct QueuedMessage: Sendable, Hashable {
    package var message: WebhookMessage
    package var endpointIDs: [String]
}
