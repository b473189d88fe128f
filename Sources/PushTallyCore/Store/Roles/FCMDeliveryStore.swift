/// FCM's own delivery data (its BigQuery export of message events), kept beside the displays.
public protocol FCMDeliveryStore: Sendable {
    /// Stores `rows` in transactions of ``FCMImportPlan/rowsPerTransaction`` rows, each key (message, app
    /// instance, event) once whatever how often it is imported, and adds the new ones to their push's counts
    /// (``FCMDeliverySchema``). A failure midway leaves the transactions before it stored: the same import again
    /// stores the rest and counts nothing twice.
    func importFCM(_ rows: [FCMExportRow]) async throws -> FCMImportSummary
}
