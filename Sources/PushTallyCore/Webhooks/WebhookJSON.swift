/// The API's JSON for endpoints, deliveries and alert transitions: one rendering for the server's routes and
/// the CLI's local path, so `--json` prints the same text whichever of the two answered.
public enum WebhookJSON {
    /// An endpoint; `secret` only in the answer to its creation.
    public static func endpoint(_ endpoint: WebhookEndpoint, secret: String? = nil) -> String {
        var json = JSONText()
        json.open()
        json.field("id", endpoint.id)
        json.field("url", endpoint.url)
        json.field("events", json: "[" + endpoint.events.map { JSONText.quoted($0.rawValue) }.joined(separator: ",") + "]")
        json.field("description", endpoint.description)
        json.field("status", endpoint.status.rawValue)
        json.field("created_at", Timestamp.iso8601(millis: endpoint.createdAtMillis))
        if let secret { json.field("secret", secret) }
        json.close()
        return json.text
    }

    /// One delivery as `GET /v1/webhooks/{id}/deliveries` lists it.
    public static func delivery(_ delivery: WebhookDelivery) -> String {
        var json = JSONText()
        json.open()
        json.field("message_id", delivery.messageID)
        json.field("type", delivery.type.rawValue)
        json.field("status", delivery.status.rawValue)
        json.field("attempts", Int64(delivery.attempts))
        json.field("last_status", delivery.lastHTTPStatus.map(Int64.init))
        json.field("last_error", delivery.lastError)
        json.field("created_at", Timestamp.iso8601(millis: delivery.createdAtMillis))
        json.field("last_attempt_at", delivery.lastAttemptMillis.map(Timestamp.iso8601(millis:)))
        json.field("next_attempt_at", delivery.status == .pending ? delivery.nextAttemptMillis.map(Timestamp.iso8601(millis:)) : nil)
        json.field("delivered_at", delivery.deliveredAtMillis.map(Timestamp.iso8601(millis:)))
        json.close()
        return json.text
    }

    /// One entry of `GET /v1/alerts/{id}/history`.
    public static func transition(_ transition: AlertTransition) -> String {
        var json = JSONText()
        json.open()
        json.field("state", transition.state.rawValue)
        json.field("at", Timestamp.iso8601(millis: transition.atMillis))
        json.field("value", transition.value)
        json.field("detail", transition.detail)
        json.close()
        return json.text
    }
}
