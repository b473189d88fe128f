import Foundation

/// A line of an NDJSON post refused (a row of an FCM export, a delivery line): its 1-based line and what was wrong
/// with it.
public struct FCMRowError: Error, Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var error: FieldError

    public init(line: Int, error: FieldError) {
        self.line = line
        self.error = error
    }

    public var description: String { "line \(line): \(error.message)" }
}

/// Reads FCM's BigQuery export of message events as `bq extract --destination_format NEWLINE_DELIMITED_JSON`
/// writes it: one JSON object a line, `INT64` columns as strings, `event_timestamp` as
/// `2026-11-20 08:00:01.123456 UTC`. A file is taken whole or not at all, so the first bad line refuses it.
public enum FCMExportReader {
    /// The largest export file taken at once, inflated, over HTTP and from the CLI alike: `bq extract` to a
    /// wildcard URI cuts an export into files smaller than this.
    public static let maxFileBytes = 64 << 20

    /// Byte limits of the text fields kept; `analytics_label` is a push id.
    static let limits = ["message_id": 256, "instance_id": 256, "analytics_label": 128]

    /// Every row of `data` (blank lines skipped), or the first bad line's error.
    public static func rows(_ data: Data) throws(FCMRowError) -> [FCMExportRow] {
        var rows: [FCMExportRow] = []
        var number = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            guard line.contains(where: { !$0.isWhitespaceByte }) else { continue }
            do throws(FieldError) {
                rows.append(try row(try JSONValue.parse(Data(line))))
            } catch {
                throw FCMRowError(line: number, error: error)
            }
        }
        return rows
    }

    /// One row from its JSON object.
    static func row(_ value: JSONValue) throws(FieldError) -> FCMExportRow {
        guard case .object(let object) = value else {
            throw FieldError("malformed_json", "each row must be a JSON object")
        }
        guard let messageID = try text(object, "message_id") else { throw .missing("message_id") }
        guard let eventName = try text(object, "event", limit: 64) else { throw .missing("event") }
        guard let event = FCMEvent(rawValue: eventName) else {
            throw FieldError("bad_value", "event must be one of \(FCMEvent.names)", field: "event")
        }
        return FCMExportRow(
            messageID: messageID, instanceID: try text(object, "instance_id"), event: event,
            pushID: try text(object, "analytics_label"),
            platform: try platform(object["sdk_platform"]),
            eventMillis: try eventMillis(object["event_timestamp"]))
    }

    /// `sdk_platform` in the platform names clients send; any other text (FCM's `UNKNOWN`) is `unknown`.
    static func platform(_ value: JSONValue?) throws(FieldError) -> String {
        let sdkPlatform: String?
        switch value?.rawValue {
        case .string(let text)?: sdkPlatform = text
        case nil: sdkPlatform = nil
        default: throw FieldError("bad_type", "sdk_platform must be a string", field: "sdk_platform")
        }
        return switch sdkPlatform?.uppercased() {
        case "ANDROID": "android"
        case "IOS": "ios"
        case "WEB": "web"
        default: ReportGrouping.unknownPlatform
        }
    }

    /// `event_timestamp` as BigQuery writes a `TIMESTAMP` (`2026-11-20 08:00:01.123456 UTC`), or any time the
    /// API takes (ISO 8601, unix seconds).
    static func eventMillis(_ value: JSONValue?) throws(FieldError) -> Int64? {
        guard let raw = value?.rawValue else { return nil }
        if case .string(let text) = raw, text.hasSuffix(" UTC"), text.count > 14 {
            var iso = String(text.dropLast(4)) + "Z"
            if let space = iso.firstIndex(of: " ") { iso.replaceSubrange(space...space, with: "T") }
            return try Timestamp.millis(from: .string(iso), field: "event_timestamp")
        }
        return try Timestamp.millis(from: raw, field: "event_timestamp")
    }

    private static func text(_ object: [String: JSONValue], _ field: String, limit: Int? = nil) throws(FieldError) -> String? {
        guard let value = object[field]?.rawValue else { return nil }
        return try EventValidator.text(RawEvent(fields: [field: value]), field, limit: limit ?? limits[field] ?? 128)
    }
}

extension UInt8 {
    fileprivate var isWhitespaceByte: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
