/// The fields of the event feed, declared once: the NDJSON lines (``ExportedEvent``'s keys), the Parquet
/// columns and every warehouse schema (``FeedSchema/bigQuery``, ``FeedSchema/clickHouse``, …) are rendered from
/// this list, and a test holds the lines' keys and the raw events' exported columns to it.
public enum FeedSchema {
    /// Raised when a field's meaning or type changes; a field added at the end leaves it (warehouses take
    /// additive changes as they come). docs/EXPORT.md keeps the changelog.
    public static let version = 1

    /// The table name the rendered schemas create.
    public static let table = "pushtally_events"

    public static let fields: [FeedField] = [
        FeedField("event_id", .text, required: true, "The event's id in every database it is copied to: `<database id>:<seq>` of the database that first stored it. What a warehouse dedupes on.") { .text($0.event_id) },
        FeedField("type", .text, required: true, "receipt (a display), action, session, conversion, send (a send record of the push backend) or fcm_delivery (a row of FCM's delivery data).") { .text($0.type) },
        FeedField("cursor", .text, required: true, "The feed's position after this event: pass it as `after` to read on.") { .text($0.cursor) },
        FeedField("seq", .integer, required: true, "The event's row id in the database it was read from.") { .integer($0.seq) },
        FeedField("kind", .text, required: true, "display, action, session or conversion (the `pushtally export` file's name for the type); send and fcm_delivery as `type`.") { .text($0.kind) },
        FeedField("push_id", .text, required: true, "The push, as its payload names it; empty for sessions, conversions and FCM deliveries without a label.") { .text($0.push_id) },
        FeedField("action", .text, required: false, "Actions: open, dismiss or the custom action's id.") { .text($0.action) },
        FeedField("received_at", .integer, required: true, "When the collector received it (a send record or an FCM delivery: stored it), unix milliseconds.") { .integer($0.received_at) },
        FeedField("event_time", .integer, required: true, "When the device says it happened (clamped to the receipt); sends: `sent_at` when known; FCM deliveries: FCM's event time; else `received_at`. Unix milliseconds.") { .integer($0.event_time) },
        FeedField("duplicate", .boolean, required: true, "A retry of an event already stored (reports count it once).") { .boolean($0.duplicate) },
        FeedField("device_id", .text, required: false, "The device, as the collector's keyed hash of the id its client sent (FCM deliveries: of the app instance id).") { .text($0.device_id) },
        FeedField("receipt_id", .text, required: false, "The client's id of the event (sessions: the session id; conversions: the conversion id).") { .text($0.receipt_id) },
        FeedField("platform", .text, required: false, "ios, android, web or what the client named (sends: the record's platform, when it named one).") { .text($0.platform) },
        FeedField("app_version", .text, required: false, "The app's version.") { .text($0.app_version) },
        FeedField("os_version", .text, required: false, "The OS version.") { .text($0.os_version) },
        FeedField("app", .text, required: false, "Sessions: the app it was in; sends: the app the push went to.") { .text($0.app) },
        FeedField("event", .text, required: false, "Conversions: what it was (purchase, signup...); FCM deliveries: FCM's event (MESSAGE_DELIVERED...).") { .text($0.event) },
        FeedField("value_micros", .integer, required: false, "Conversions: the value in millionths of `currency`, exact.") { .integer($0.value_micros) },
        FeedField("currency", .text, required: false, "Conversions: the value's currency.") { .text($0.currency) },
        FeedField("media", .text, required: false, "Displays: the rich-media outcome (none, attached, failed, timed_out).") { .text($0.media) },
        FeedField("extension_ms", .integer, required: false, "Displays: the notification service extension's milliseconds.") { .integer($0.extension_ms) },
        FeedField("notification_permission", .text, required: false, "Sessions: the notification setting.") { .text($0.notification_permission) },
        FeedField("campaign", .text, required: false, "Sends: the push's campaign when the record was stored (a push's newest send line names its campaign now).") { .text($0.campaign) },
        FeedField("batch_id", .text, required: false, "Sends: the record's batch, empty for a registration's totals. A later line of the same push and batch replaces the earlier one's counts.") { .text($0.batch_id) },
        FeedField("targeted", .integer, required: false, "Sends: devices the backend addressed.") { .integer($0.targeted) },
        FeedField("sent", .integer, required: false, "Sends: devices the provider accepted the push for.") { .integer($0.sent) },
        FeedField("failed", .integer, required: false, "Sends: devices the provider refused, the sum of `failures`.") { .integer($0.failed) },
        FeedField("failures", .text, required: false, "Sends: the refusals as a JSON object of reason to count, in reason order (`{}` for none).") { .text($0.failures) },
        FeedField("sent_at", .integer, required: false, "Sends: when the backend sent the push, unix milliseconds, once it said.") { .integer($0.sent_at) },
        FeedField("message_id", .text, required: false, "FCM deliveries: FCM's message id.") { .text($0.message_id) },
    ]
}

/// One field of the feed (``FeedSchema/fields``).
public struct FeedField: Sendable {
    public enum Kind: Sendable, Hashable {
        case text, integer, boolean
    }

    public let name: String
    public let kind: Kind
    /// Every event has it; an optional field is absent from a line (and `NULL` in a table) when an event lacks it.
    public let required: Bool
    public let description: String
    /// The field's value in an event.
    public let value: @Sendable (ExportedEvent) -> FeedValue

    init(_ name: String, _ kind: Kind, required: Bool, _ description: String, value: @escaping @Sendable (ExportedEvent) -> FeedValue) {
        self.name = name
        self.kind = kind
        self.required = required
        self.description = description
        self.value = value
    }
}

/// A field's value in one event.
public enum FeedValue: Sendable, Hashable {
    case text(String?)
    case integer(Int64?)
    case boolean(Bool?)

    public var isNull: Bool {
        switch self {
        case .text(let value): value == nil
        case .integer(let value): value == nil
        case .boolean(let value): value == nil
        }
    }
}
