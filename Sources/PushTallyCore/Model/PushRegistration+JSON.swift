/// A registration as `PUT /v1/pushes/{push_id}` and `POST /v1/pushes` take it, which ``PushValidator`` reads
/// back: the encoder the CLI and other clients send with, beside the type it describes.
extension PushRegistration: Encodable {
    private enum Key: String, CodingKey {
        case push_id, campaign, title, sent_at, app, environment, targeted, sent, failed, platform
        case variant, collapse_id, priority, push_type, expiration
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(pushID, forKey: .push_id)
        try container.encode(campaign, forKey: .campaign)
        try container.encodeIfPresent(title, forKey: .title)
        // Seconds since 1970 with the milliseconds as a fraction, as the API documents sent_at.
        try container.encodeIfPresent(sentAtMillis.map { Double($0) / 1000 }, forKey: .sent_at)
        try container.encodeIfPresent(app, forKey: .app)
        try container.encodeIfPresent(environment, forKey: .environment)
        try container.encode(counts.targeted, forKey: .targeted)
        try container.encode(counts.sent, forKey: .sent)
        try container.encode(counts.failed, forKey: .failed)
        try container.encodeIfPresent(counts.platform, forKey: .platform)
        try container.encodeIfPresent(attributes.variant, forKey: .variant)
        try container.encodeIfPresent(attributes.collapseID, forKey: .collapse_id)
        try container.encodeIfPresent(attributes.priority, forKey: .priority)
        try container.encodeIfPresent(attributes.pushType, forKey: .push_type)
        try container.encodeIfPresent(attributes.expirationMillis.map { Double($0) / 1000 }, forKey: .expiration)
    }
}
