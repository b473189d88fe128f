import Foundation

/// A receiver URL as checked before anything resolves it: `http` or `https`, a host, no credentials.
public struct WebhookURL: Sendable, Hashable {
    public var url: String
    /// The host as written, without IPv6 brackets.
    public var host: String
    public var port: Int
    public var isHTTPS: Bool

    /// - Throws: ``FieldError`` naming `field` when the URL is not one a webhook can be sent to.
    public init(_ text: String, field: String = "url") throws(FieldError) {
        guard text.utf8.count <= 2048 else { throw FieldError("too_long", "\(field) must be at most 2048 bytes", field: field) }
        if let problem = WebhookURLText.problem(text, field: field) { throw FieldError("bad_url", problem, field: field) }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw FieldError("bad_url", "\(field) must be an absolute http or https URL", field: field)
        }
        guard scheme == "http" || scheme == "https" else {
            throw FieldError("bad_url", "\(field) must use http or https, not \(scheme)", field: field)
        }
        guard let host = components.host, !host.isEmpty else {
            throw FieldError("bad_url", "\(field) must name a host", field: field)
        }
        guard components.user == nil, components.password == nil else {
            throw FieldError("bad_url", "\(field) must not carry credentials: the signature authenticates PushTally", field: field)
        }
        guard components.fragment == nil else {
            throw FieldError("bad_url", "\(field) must not have a #fragment", field: field)
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw FieldError("bad_url", "\(field) has a port outside 1-65535", field: field)
        }
        self.url = text
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.isHTTPS = scheme == "https"
        self.port = components.port ?? (isHTTPS ? 443 : 80)
    }
}

/// `POST /v1/webhooks`: `{"url", "events", "description"?}`.
public struct WebhookRequest: Sendable, Hashable {
    public var url: WebhookURL
    public var events: [WebhookEventType]
    public var description: String?

    public init(url: WebhookURL, events: [WebhookEventType], description: String? = nil) {
        self.url = url
        self.events = events
        self.description = description
    }

    /// - Throws: ``FieldError`` naming the field that is missing or wrong.
    public static func parse(_ value: JSONValue) throws(FieldError) -> WebhookRequest {
        guard case .object(let object) = value else {
            throw FieldError("malformed_json", "a webhook must be a JSON object")
        }
        if let unknown = object.keys.sorted().first(where: { !["url", "events", "description"].contains($0) }) {
            throw FieldError("unknown_field", "\(unknown) is not a webhook field (url, events, description)", field: unknown)
        }
        guard case .string(let urlText)? = object["url"] else {
            throw object["url"] == nil ? .missing("url") : FieldError("bad_type", "url must be a string", field: "url")
        }
        guard case .array(let list)? = object["events"] else {
            throw object["events"] == nil
                ? .missing("events") : FieldError("bad_type", "events must be an array of event types", field: "events")
        }
        let known = WebhookEventType.allCases.map(\.rawValue).joined(separator: ", ")
        var events = Set<WebhookEventType>()
        for item in list {
            guard case .string(let name) = item, let type = WebhookEventType(rawValue: name) else {
                throw FieldError("bad_value", "events must name event types among \(known)", field: "events")
            }
            events.insert(type)
        }
        guard !events.isEmpty else {
            throw FieldError("bad_value", "events must name at least one of \(known)", field: "events")
        }
        var description: String?
        switch object["description"] {
        case nil, .null?:
            break
        case .string(let text)?:
            guard text.utf8.count <= 512 else {
                throw FieldError("too_long", "description must be at most 512 bytes", field: "description")
            }
            description = text.isEmpty ? nil : text
        default:
            throw FieldError("bad_type", "description must be a string", field: "description")
        }
        return WebhookRequest(url: try WebhookURL(urlText), events: events.sorted(), description: description)
    }
}
