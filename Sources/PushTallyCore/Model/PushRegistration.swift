import Foundation

/// What the push backend says it sent: one send-out of one push.
public struct PushRegistration: Sendable, Hashable {
    public var pushID: String
    public var campaign: String
    public var title: String?
    /// When the backend sent the push, milliseconds since 1970. Once set it never moves.
    public var sentAtMillis: Int64?
    /// The bundle id of the app the push went to.
    public var app: String?
    /// `production` or `sandbox`.
    public var environment: String?
    public var counts: SendCounts
    /// Variant and APNs send attributes.
    public var attributes: SendAttributes

    public init(
        pushID: String, campaign: String, title: String? = nil, sentAtMillis: Int64? = nil, app: String? = nil,
        environment: String? = nil, counts: SendCounts = SendCounts(), attributes: SendAttributes = SendAttributes()
    ) {
        self.pushID = pushID
        self.campaign = campaign
        self.title = title
        self.sentAtMillis = sentAtMillis
        self.app = app
        self.environment = environment
        self.counts = counts
        self.attributes = attributes
    }
}

/// Device counts of a send-out, absolute for a registration, a delta for a batch of sends.
public struct SendCounts: Sendable, Hashable, Codable {
    /// Devices the backend addressed.
    public var targeted: Int64
    /// Devices APNs accepted the push for.
    public var sent: Int64
    /// Devices APNs refused, by its reason (`Unregistered`, `BadDeviceToken`...).
    public var failed: [String: Int64]
    /// The platform every device of this record is on (`ios`, `android`, `web`...), as events name theirs;
    /// `nil` when the record names none (its counts are `unknown`'s in a split by platform).
    public var platform: String?

    public init(targeted: Int64 = 0, sent: Int64 = 0, failed: [String: Int64] = [:], platform: String? = nil) {
        self.targeted = targeted
        self.sent = sent
        self.failed = failed
        self.platform = platform
    }
}

/// Counts one of several parallel senders adds to a push, idempotent by `batchID`.
public struct SendBatch: Sendable, Hashable {
    public var pushID: String
    public var batchID: String
    /// Registers the push with this campaign if nobody has yet.
    public var campaign: String?
    public var counts: SendCounts

    public init(pushID: String, batchID: String, campaign: String? = nil, counts: SendCounts) {
        self.pushID = pushID
        self.batchID = batchID
        self.campaign = campaign
        self.counts = counts
    }
}

/// Any JSON value, for bodies validated field by field.
public enum JSONValue: Sendable, Hashable, Decodable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses one JSON document, mapping any syntax error to a 400-style ``FieldError``.
    public static func parse(_ data: Data) throws(FieldError) -> JSONValue {
        if let wide = data.withUnsafeBytes({ JSONTextCheck.wideEncoding($0, of: "the body") }) { throw wide }
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            // Said as what it is when the text itself is the trouble, as on the ingest routes.
            let problem = data.withUnsafeBytes { JSONTextCheck.problem(in: $0, of: "the body") }
            throw problem ?? FieldError("malformed_json", "the body is not valid JSON")
        }
    }

    /// The scalar as the field readers take it (`nil` for JSON null, `.unsupported` for containers).
    package var rawValue: RawValue? {
        switch self {
        case .string(let s): .string(s)
        case .number(let n): .number(n)
        case .null: nil
        case .bool: .unsupported("boolean")
        case .array: .unsupported("array")
        case .object: .unsupported("object")
        }
    }
}
