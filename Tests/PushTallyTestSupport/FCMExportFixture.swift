import Foundation

/// Rows of FCM's BigQuery export of message events as `bq extract` writes them (NDJSON, `INT64` columns as
/// strings, `TIMESTAMP` as `… UTC`), for the import's tests: deliveries and acceptances of a registered push,
/// two kinds of error, a row repeated, a label nobody registered, a row with no label, and one with no app
/// instance. ``recount(_:)`` counts them independently of the importer.
public enum FCMExportFixture {
    /// The pushes the rows name: `fcm-1` and `fcm-2` are registered by the tests, `fcm-ghost` never is.
    public static let registered = ["fcm-1", "fcm-2"]

    static func row(
        _ message: String, _ instance: String?, _ event: String, label: String?, platform: String = "ANDROID",
        second: Int = 1
    ) -> String {
        var fields: [(String, String)] = [
            ("event_timestamp", "\"2026-11-20 08:00:\(String(format: "%02d", second)).123456 UTC\""),
            ("project_number", "\"123456789012\""), ("message_id", "\"\(message)\""),
        ]
        if let instance { fields.append(("instance_id", "\"\(instance)\"")) }
        fields += [
            ("message_type", "\"DATA_MESSAGE\""), ("sdk_platform", "\"\(platform)\""), ("app_name", "\"com.example.news\""),
            ("collapse_key", "\"news\""), ("priority", "\"10\""), ("ttl", "\"2419200\""), ("topic", "null"),
            ("bulk_id", "\"0\""), ("event", "\"\(event)\""),
        ]
        if let label { fields.append(("analytics_label", "\"\(label)\"")) }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// The good rows, one a line.
    public static let lines: [String] = [
        row("0:1700000000000001%31bd1c96", "fX1a", "MESSAGE_ACCEPTED", label: "fcm-1"),
        row("0:1700000000000001%31bd1c96", "fX1a", "MESSAGE_DELIVERED", label: "fcm-1", second: 2),
        row("0:1700000000000002%31bd1c96", "fX2b", "MESSAGE_ACCEPTED", label: "fcm-1"),
        row("0:1700000000000002%31bd1c96", "fX2b", "MESSAGE_DELIVERED", label: "fcm-1", second: 3),
        row("0:1700000000000003%31bd1c96", "fX3c", "INVALID_REGISTRATION", label: "fcm-1"),
        row("0:1700000000000004%31bd1c96", "fX4d", "QUOTA_EXCEEDED", label: "fcm-1"),
        // The delivery above again, as an overlapping second export holds it.
        row("0:1700000000000001%31bd1c96", "fX1a", "MESSAGE_DELIVERED", label: "fcm-1", second: 2),
        row("0:1700000000000005%31bd1c96", "fX5e", "MESSAGE_DELIVERED", label: "fcm-ghost", second: 4),
        row("0:1700000000000006%31bd1c96", "fX6f", "MESSAGE_DELIVERED", label: "fcm-2", second: 5),
        row("0:1700000000000007%31bd1c96", "fX7g", "MESSAGE_ACCEPTED", label: nil),
        row("0:1700000000000008%31bd1c96", nil, "MISSING_REGISTRATIONS", label: "fcm-2", platform: "IOS"),
    ]

    /// The file's text.
    public static var text: String { lines.joined(separator: "\n") + "\n" }

    /// The file with its sixth line cut short: a broken row, refused with its line number.
    public static var broken: String {
        var lines = lines
        lines[5] = String(lines[5].prefix(40))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The line of ``broken`` that is broken.
    public static let brokenLine = 6

    /// What the rows say, counted here without the importer: each (message, instance, event) once.
    public struct Counts: Equatable, Sendable {
        public var rows = 0
        public var stored = 0
        public var duplicates = 0
        public var orphans = 0
        public var unlabelled = 0
        /// By label, platform and event.
        public var events: [String: [String: [String: Int64]]] = [:]

        /// Events of `event` for `label`, over every platform (or one).
        public func count(_ label: String, _ event: String, platform: String? = nil) -> Int64 {
            (events[label] ?? [:]).filter { platform == nil || $0.key == platform }.values.reduce(0) { $0 + ($1[event] ?? 0) }
        }

        /// Error events (every event but acceptance and delivery) of `label` by name.
        public func errors(_ label: String, platform: String? = nil) -> [String: Int64] {
            var errors: [String: Int64] = [:]
            for (rowPlatform, events) in events[label] ?? [:] where platform == nil || rowPlatform == platform {
                for (event, count) in events where event != "MESSAGE_ACCEPTED" && event != "MESSAGE_DELIVERED" {
                    errors[event, default: 0] += count
                }
            }
            return errors
        }
    }

    /// Counts `text`'s rows as the import must, reading each line with JSONSerialization.
    public static func recount(_ text: String, registered: [String] = registered) throws -> Counts {
        var counts = Counts()
        var seen = Set<String>()
        for line in text.split(separator: "\n") where !line.isEmpty {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            counts.rows += 1
            let key = "\(object["message_id"]!)|\(object["instance_id"] ?? "")|\(object["event"]!)"
            guard seen.insert(key).inserted else {
                counts.duplicates += 1
                continue
            }
            counts.stored += 1
            guard let label = object["analytics_label"] as? String else {
                counts.unlabelled += 1
                continue
            }
            if !registered.contains(label) { counts.orphans += 1 }
            let platform = (object["sdk_platform"] as? String)?.lowercased() ?? "unknown"
            counts.events[label, default: [:]][platform, default: [:]][object["event"] as! String, default: 0] += 1
        }
        return counts
    }
}
