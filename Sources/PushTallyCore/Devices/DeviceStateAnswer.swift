/// One device's line in the answer of `POST /v1/devices/states`: its ``DarkState`` in the window and the times it
/// was judged by; `state` `null` for an id the backend never posted a delivery for.
public struct DeviceStateAnswer: Sendable, Hashable, Codable {
    public var device_id: String
    public var state: DarkState?
    /// Sends in the window.
    public var sends: Int
    public var last_sent_at: String?
    public var last_outcome: String?
    public var last_outcome_at: String?
    public var last_display_at: String?
    public var last_open_at: String?
    public var last_session_at: String?
    public var notification_permission: String?
    public var recipient: String?

    public init(deviceID: String, state stored: DeviceState?, sinceMillis: Int64) {
        func time(_ millis: Int64?) -> String? { millis.map(Timestamp.iso8601(millis:)) }
        device_id = deviceID
        state = stored?.state(sinceMillis: sinceMillis)
        sends = stored?.sends.count(sinceMillis: sinceMillis) ?? 0
        last_sent_at = time(stored?.sends.lastMillis)
        last_outcome = stored?.lastOutcome
        last_outcome_at = time(stored?.lastOutcomeMillis)
        last_display_at = time(stored?.lastDisplayMillis)
        last_open_at = time(stored?.lastOpenMillis)
        last_session_at = time(stored?.lastSessionMillis)
        notification_permission = stored?.permission
        recipient = stored?.recipient
    }

    /// `state` is written even when `null` (an id never posted); the times only when known.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(device_id, forKey: .device_id)
        try container.encode(state, forKey: .state)
        try container.encode(sends, forKey: .sends)
        try container.encodeIfPresent(last_sent_at, forKey: .last_sent_at)
        try container.encodeIfPresent(last_outcome, forKey: .last_outcome)
        try container.encodeIfPresent(last_outcome_at, forKey: .last_outcome_at)
        try container.encodeIfPresent(last_display_at, forKey: .last_display_at)
        try container.encodeIfPresent(last_open_at, forKey: .last_open_at)
        try container.encodeIfPresent(last_session_at, forKey: .last_session_at)
        try container.encodeIfPresent(notification_permission, forKey: .notification_permission)
        try container.encodeIfPresent(recipient, forKey: .recipient)
    }
}

/// Reads the body of `POST /v1/devices/states`: a JSON array of install ids (strings), at most ``maxIDs``.
public enum DeviceStateRequest {
    public static let maxIDs = 10_000

    public static func deviceIDs(_ value: JSONValue) throws(FieldError) -> [String] {
        guard case .array(let elements) = value else {
            throw FieldError("bad_type", "the body must be a JSON array of device ids", field: "device_ids")
        }
        guard elements.count <= maxIDs else {
            throw FieldError("too_many", "at most \(maxIDs) device ids a request; ask for the rest in another", field: "device_ids")
        }
        var ids: [String] = []
        ids.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element,
                let id = try EventValidator.checkedText(text, field: "device_ids[\(index)]", limit: EventValidator.limits["device_id"] ?? 128)
            else {
                throw FieldError("bad_value", "device_ids[\(index)] must be a non-empty string", field: "device_ids[\(index)]")
            }
            ids.append(id)
        }
        return ids
    }
}
