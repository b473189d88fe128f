import Foundation

/// One display receipt or action, as it waits in the outbox and as it is posted (one NDJSON line).
///
/// Its encoding is the outbox file format of every earlier version of the Kit, which queued receipts only:
/// keep the fields and their names as they are, or files already queued on phones stop decoding.
struct ReceiptEvent: Codable, Equatable, Sendable {
    var push_id: String
    /// Set for actions (`open`, `dismiss`, or a custom identifier); absent for display receipts.
    var action: String?
    var device_id: String
    var receipt_id: String
    /// The device's clock at the event, unix seconds.
    var ts: Double
    var platform: String?
    var app_version: String?
    var os_version: String?
    /// For display receipts: what became of the push's media (`MediaOutcome`'s raw values).
    var media: String?
    /// For display receipts: milliseconds from the extension's start to its receipt, 0 to 60,000.
    var extension_ms: Int?

    var route: Route { action == nil ? .receipts : .actions }
}
