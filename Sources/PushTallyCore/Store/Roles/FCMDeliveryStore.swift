/// FCM's own delivery data (its BigQuery export of message events), kept beside the displays.
public protocol FCMDeliveryStore: Sendable {
    /// Stores `rows` in one transaction, each key (message, app instance, event) once whatever how often it
    /// is imported, and adds the new ones to their push's counts (``FCMDeliverySchema``).
    func importFCM(_ rows: [FCMExportRow]) async throws -> FCMImportSummary
}
