/// Whether an alert's condition holds.
public enum AlertState: String, Sendable, Hashable, Codable {
    case ok, firing
}

/// A stored alert: its rule and where it stands.
public struct Alert: Sendable, Hashable {
    /// `al_` and a time-ordered hex id.
    public var id: String
    public var rule: AlertRule
    public var createdAtMillis: Int64
    public var state: AlertState
    /// When the alert entered its current state.
    public var sinceMillis: Int64
    /// The last evaluated value (a rate for `receipts_stopped`, a ratio otherwise); `nil` when there was too little to judge.
    public var value: Double?
    /// What the value is about: the app version for `version_not_posting`.
    public var detail: String?
    public var evaluatedAtMillis: Int64?

    public init(
        id: String, rule: AlertRule, createdAtMillis: Int64, state: AlertState = .ok, sinceMillis: Int64,
        value: Double? = nil, detail: String? = nil, evaluatedAtMillis: Int64? = nil
    ) {
        self.id = id
        self.rule = rule
        self.createdAtMillis = createdAtMillis
        self.state = state
        self.sinceMillis = sinceMillis
        self.value = value
        self.detail = detail
        self.evaluatedAtMillis = evaluatedAtMillis
    }

    /// A new alert, ok until its first evaluation says otherwise.
    public static func new(_ rule: AlertRule, at millis: Int64) -> Alert {
        Alert(id: WebhookID.make("al", millis: millis), rule: rule, createdAtMillis: millis, sinceMillis: millis)
    }

    /// The alert as the API and webhooks show it.
    public var json: String {
        var json = JSONText()
        json.open()
        json.field("id", id)
        json.field("name", rule.name)
        json.field("kind", rule.kind.rawValue)
        json.field("window", DurationText.text(millis: rule.windowMillis))
        json.field("threshold", rule.threshold)
        json.field("min_sent", rule.minSent)
        json.field("grace", DurationText.text(millis: rule.graceMillis))
        json.field("campaign", rule.campaign)
        json.field("app", rule.app)
        json.field("state", state.rawValue)
        json.field("since", Timestamp.iso8601(millis: sinceMillis))
        json.field("value", value)
        json.field("detail", detail)
        json.field("evaluated_at", evaluatedAtMillis.map(Timestamp.iso8601(millis:)))
        json.field("created_at", Timestamp.iso8601(millis: createdAtMillis))
        json.close()
        return json.text
    }
}

/// One transition in an alert's history.
public struct AlertTransition: Sendable, Hashable {
    public var alertID: String
    public var state: AlertState
    public var atMillis: Int64
    public var value: Double?
    public var detail: String?

    public init(alertID: String, state: AlertState, atMillis: Int64, value: Double?, detail: String?) {
        self.alertID = alertID
        self.state = state
        self.atMillis = atMillis
        self.value = value
        self.detail = detail
    }
}

/// What one evaluation found.
public struct AlertReading: Sendable, Hashable {
    public var firing: Bool
    public var value: Double?
    public var detail: String?

    public init(firing: Bool, value: Double?, detail: String? = nil) {
        self.firing = firing
        self.value = value
        self.detail = detail
    }

    /// The alert after this reading at `now`, and the transition when its state changed.
    public func applied(to alert: Alert, at now: Int64) -> (alert: Alert, transition: AlertTransition?) {
        var next = alert
        next.value = value
        next.detail = detail
        next.evaluatedAtMillis = now
        let state: AlertState = firing ? .firing : .ok
        guard state != alert.state else { return (next, nil) }
        next.state = state
        next.sinceMillis = now
        return (next, AlertTransition(alertID: alert.id, state: state, atMillis: now, value: value, detail: detail))
    }
}
