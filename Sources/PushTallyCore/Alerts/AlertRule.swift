/// What an alert watches.
public enum AlertKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Pushes sent in the window (but the last `grace`) have a display rate below the threshold.
    case receiptsStopped = "receipts_stopped"
    /// The display rate over the window fell below `threshold` times the rate of the 7 days before it.
    case displayRateDrop = "display_rate_drop"
    /// An app version's share of receipts is below `threshold` times its share of opens: its extension stopped posting.
    case versionNotPosting = "version_not_posting"
}

/// An alert's definition, as `POST /v1/alerts` takes it.
public struct AlertRule: Sendable, Hashable {
    public var name: String
    public var kind: AlertKind
    public var windowMillis: Int64
    /// A fraction: 0.2 is 20 %.
    public var threshold: Double
    /// Below this many sent (opens, for `version_not_posting`) in the window the alert stays ok: too little to judge.
    public var minSent: Int64
    /// The most recent stretch left out, since receipts of just-sent pushes are still arriving.
    public var graceMillis: Int64
    public var campaign: String?
    public var app: String?

    /// The default grace: receipts of most pushes arrive within minutes.
    public static let defaultGraceMillis: Int64 = 300_000

    public init(
        name: String, kind: AlertKind, windowMillis: Int64, threshold: Double, minSent: Int64,
        graceMillis: Int64 = AlertRule.defaultGraceMillis, campaign: String? = nil, app: String? = nil
    ) {
        self.name = name
        self.kind = kind
        self.windowMillis = windowMillis
        self.threshold = threshold
        self.minSent = minSent
        self.graceMillis = graceMillis
        self.campaign = campaign
        self.app = app
    }

    static let fields = ["name", "kind", "window", "threshold", "min_sent", "grace", "campaign", "app"]

    /// - Throws: ``FieldError`` naming the field that is missing or wrong.
    public static func parse(_ value: JSONValue) throws(FieldError) -> AlertRule {
        guard case .object(let object) = value else { throw FieldError("malformed_json", "an alert must be a JSON object") }
        if let unknown = object.keys.sorted().first(where: { !fields.contains($0) }) {
            throw FieldError("unknown_field", "\(unknown) is not an alert field (\(fields.joined(separator: ", ")))", field: unknown)
        }
        guard let name = try text(object, "name", limit: 128) else { throw .missing("name") }
        guard let kindText = try text(object, "kind", limit: 64) else { throw .missing("kind") }
        guard let kind = AlertKind(rawValue: kindText) else {
            let kinds = AlertKind.allCases.map(\.rawValue).joined(separator: ", ")
            throw FieldError("bad_value", "kind must be one of \(kinds)", field: "kind")
        }
        guard let window = try duration(object, "window") else { throw .missing("window") }
        guard window >= 60_000, window <= 90 * 86_400_000 else {
            throw FieldError("bad_value", "window must be from 1m to 90d", field: "window")
        }
        let grace = try duration(object, "grace") ?? defaultGraceMillis
        guard grace < window else { throw FieldError("bad_value", "grace must be shorter than window", field: "grace") }
        guard case .number(let threshold)? = object["threshold"] else {
            throw object["threshold"] == nil
                ? .missing("threshold") : FieldError("bad_type", "threshold must be a number", field: "threshold")
        }
        guard threshold.isFinite, threshold > 0, threshold <= kind.maximumThreshold else {
            throw FieldError("bad_value", kind.thresholdRule, field: "threshold")
        }
        var minSent: Int64 = 0
        switch object["min_sent"] {
        case nil, .null?: throw .missing("min_sent")
        case .number(let n)? where n.rounded() == n && n >= 0 && n <= 1e15: minSent = Int64(n)
        default: throw FieldError("bad_value", "min_sent must be a whole number from 0 to 10^15", field: "min_sent")
        }
        return AlertRule(
            name: name, kind: kind, windowMillis: window, threshold: threshold, minSent: minSent, graceMillis: grace,
            campaign: try text(object, "campaign", limit: 256), app: try text(object, "app", limit: 256))
    }

    private static func text(_ object: [String: JSONValue], _ field: String, limit: Int) throws(FieldError) -> String? {
        guard let value = object[field]?.rawValue else { return nil }
        return try EventValidator.text(RawEvent(fields: [field: value]), field, limit: limit)
    }

    private static func duration(_ object: [String: JSONValue], _ field: String) throws(FieldError) -> Int64? {
        switch object[field] {
        case nil, .null?: return nil
        case .string(let text)?:
            guard let millis = DurationText.millis(text) else {
                throw FieldError("bad_value", "\(field) must be a duration such as 30m, 1h or 7d", field: field)
            }
            return millis
        default:
            throw FieldError("bad_type", "\(field) must be a duration string such as 30m, 1h or 7d", field: field)
        }
    }
}
