/// One of a device's raw events as the support timeline shows it, with what its push's registration adds.
public struct TimelineEntry: Sendable, Hashable {
    /// The event's row id: the tie-breaker between events of the same time, and the cursor's second half.
    public var row: Int64
    public var kind: EventKind
    /// The push a display or action names; `nil` for sessions and conversions (see ``attribution``).
    public var pushID: String?
    /// An action's identifier (`open`, `dismiss` or the app's own).
    public var action: String?
    public var eventTimeMillis: Int64
    public var receivedAtMillis: Int64
    public var duplicate: Bool
    /// The campaign of the push the event names, or that a session or conversion is credited to.
    public var campaign: String?
    /// The session's app, else the push's registered app.
    public var app: String?
    public var appVersion: String?
    public var osVersion: String?
    /// The displayed push's `sent_at`, for the time to display.
    public var sentAtMillis: Int64?
    /// A session's `session_id` or a conversion's `conversion_id`.
    public var clientID: String?
    /// A conversion's `event`.
    public var name: String?
    public var valueMicros: Int64?
    public var currency: String?
    /// A session's or conversion's stored credit.
    public var attribution: Attribution?
    /// A display's rich-media outcome, when its receipt said.
    public var media: ReceiptMedia?
    /// A display's extension time in milliseconds, when its receipt said.
    public var extensionMillis: Int64?
    /// A session's notification setting, when the app said.
    public var notificationPermission: NotificationPermission?

    public init(row: Int64, kind: EventKind, eventTimeMillis: Int64, receivedAtMillis: Int64, duplicate: Bool) {
        self.row = row
        self.kind = kind
        self.eventTimeMillis = eventTimeMillis
        self.receivedAtMillis = receivedAtMillis
        self.duplicate = duplicate
    }

    /// Seconds from `sent_at` to the display; `nil` for other events and for pushes sent without `sent_at`.
    public var timeToDisplaySeconds: Double? {
        guard kind == .display, let sentAtMillis else { return nil }
        return Double(eventTimeMillis - sentAtMillis) / 1000
    }

    /// The entry as one element of `{"events": [...]}`: fields an event does not have are left out.
    package func write(to json: inout JSONText) {
        json.open()
        json.field("type", ExportedEvent.kindNames[kind])
        json.field("ts", Timestamp.iso8601(millis: eventTimeMillis))
        json.field("received_at", Timestamp.iso8601(millis: receivedAtMillis))
        if let pushID { json.field("push_id", pushID) }
        if let action { json.field("action", action) }
        if let campaign { json.field("campaign", campaign) }
        if let app { json.field("app", app) }
        if let appVersion { json.field("app_version", appVersion) }
        if let osVersion { json.field("os_version", osVersion) }
        if let seconds = timeToDisplaySeconds { json.field("time_to_display_s", seconds) }
        if let media { json.field("media", media.rawValue) }
        if let extensionMillis { json.field("extension_ms", extensionMillis) }
        if let notificationPermission { json.field("notification_permission", notificationPermission.rawValue) }
        if let clientID { json.field(kind == .session ? "session_id" : "conversion_id", clientID) }
        if let name { json.field("event", name) }
        // The exact decimal, as a JSON number: a Double would round large values.
        if let valueMicros { json.field("value", json: MoneyAmount.text(micros: valueMicros)) }
        if let currency { json.field("currency", currency) }
        if let attribution {
            json.field("attribution", attribution.name)
            if let push = attribution.pushID { json.field("attributed_push", push) }
        }
        json.field("duplicate", json: duplicate ? "true" : "false")
        json.close()
    }
}

extension Attribution {
    /// `direct`, `influenced` or `unattributed`, as the timeline names a credit.
    public var name: String {
        switch self {
        case .unattributed: "unattributed"
        case .direct: "direct"
        case .influenced: "influenced"
        }
    }
}
