import Foundation

/// What the push backend says one push did for one device: the provider accepted it, or refused it by a reason
/// as the provider named it (APNs `Unregistered`, `BadDeviceToken`; FCM `UNREGISTERED`...).
public struct DeliveryLine: Sendable, Hashable {
    /// The outcome of a push the provider took.
    public static let accepted = "accepted"

    /// The install id the app's client posts its events with (stored as the store's keyed hash).
    public var deviceID: String
    /// `ios`, `android`, `web` or any other name, in lower case as events name theirs.
    public var platform: String
    /// ``accepted`` or the provider's refusal.
    public var outcome: String
    /// When the provider says it happened (APNs gives the time a token stopped being valid with its 410).
    public var timestampMillis: Int64?
    /// An opaque reference of the backend's own (a user id, a token's row), answered back with the device's
    /// state and in webhooks; never required.
    public var recipient: String?

    public init(deviceID: String, platform: String, outcome: String, timestampMillis: Int64? = nil, recipient: String? = nil) {
        self.deviceID = deviceID
        self.platform = platform
        self.outcome = outcome
        self.timestampMillis = timestampMillis
        self.recipient = recipient
    }

    public var isAccepted: Bool { outcome == Self.accepted }
}

/// Reads a post of delivery lines: NDJSON (one object a line) or one JSON array of objects. Taken whole or not
/// at all: the first bad line is refused with its number (1-based; an array's element counts as its line).
public enum DeliveryReader {
    /// The most lines one request takes: a backend sends a larger fan-out in several posts.
    public static let maxLines = 100_000

    public static func lines(_ data: Data) throws(FCMRowError) -> [DeliveryLine] {
        let start = data.firstIndex { !$0.isWhitespaceByte }
        if let start, data[start] == UInt8(ascii: "[") {
            let elements: [JSONValue]
            do throws(FieldError) {
                guard case .array(let array) = try JSONValue.parse(data) else { throw FieldError("malformed_json", "the body must be an array") }
                elements = array
            } catch {
                throw FCMRowError(line: 1, error: error)
            }
            try checkCount(elements.count)
            var lines: [DeliveryLine] = []
            lines.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                do throws(FieldError) { lines.append(try line(element)) } catch { throw FCMRowError(line: index + 1, error: error) }
            }
            return lines
        }
        var lines: [DeliveryLine] = []
        var number = 0
        for text in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            guard text.contains(where: { !$0.isWhitespaceByte }) else { continue }
            try checkCount(lines.count + 1)
            do throws(FieldError) { lines.append(try line(try JSONValue.parse(Data(text)))) } catch { throw FCMRowError(line: number, error: error) }
        }
        return lines
    }

    private static func checkCount(_ count: Int) throws(FCMRowError) {
        guard count <= maxLines else {
            throw FCMRowError(line: maxLines + 1, error: FieldError("too_many", "at most \(maxLines) lines a request; post the rest in another", field: "lines"))
        }
    }

    /// One line from its JSON object.
    public static func line(_ value: JSONValue) throws(FieldError) -> DeliveryLine {
        guard case .object(let object) = value else { throw FieldError("malformed_json", "each line must be a JSON object") }
        var fields: [String: RawValue] = [:]
        for name in ["device_id", "platform", "outcome", "timestamp", "recipient"] {
            if let raw = object[name]?.rawValue { fields[name] = raw }
        }
        let raw = RawEvent(fields: fields)
        guard let deviceID = try EventValidator.text(raw, "device_id") else { throw .missing("device_id") }
        guard let platform = try EventValidator.text(raw, "platform", limit: 32) else { throw .missing("platform") }
        guard let outcome = try EventValidator.text(raw, "outcome", limit: 64) else { throw .missing("outcome") }
        return DeliveryLine(
            deviceID: deviceID, platform: PlatformName.folded(platform), outcome: outcome,
            timestampMillis: try raw.value(of: "timestamp").map { value throws(FieldError) in try Timestamp.millis(from: value, field: "timestamp") },
            recipient: try EventValidator.text(raw, "recipient", limit: 256))
    }
}

extension UInt8 {
    fileprivate var isWhitespaceByte: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
