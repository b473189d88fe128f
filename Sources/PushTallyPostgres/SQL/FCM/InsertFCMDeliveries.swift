import PushTallyCore

extension Queries {
    /// Stores FCM export rows' delivery keys, each row with its instance id as stored
    /// (``FCMDeliverySchema/instanceKey(_:hasher:)``), and returns the keys that were new: one held already, or
    /// inserted by another collector at once, is left alone.
    struct InsertFCMDeliveries: RowQuery {
        let rows: [(FCMExportRow, String)]
        let importedAt: Int64

        /// Rows a statement may carry: seven values each, within the protocol's limit of bindings.
        static let maximumRows = SQLBuilder.maximumBindings / 7

        func sql(_ dialect: SQLDialect) -> String {
            let row = "(?, ?, ?, ?, ?, ?, ?)"
            return "\(FCMDeliverySchema.insertHead) VALUES \(Array(repeating: row, count: rows.count).joined(separator: ", ")) \(FCMDeliverySchema.insertTail)"
        }

        var values: [QueryValue] {
            rows.flatMap { row, key -> [QueryValue] in
                [
                    .text(row.messageID), .text(key), .text(row.event.rawValue), .text(row.pushID ?? ""), .text(row.platform),
                    .integer(row.eventMillis), .integer(importedAt),
                ]
            }
        }

        func row(_ columns: some QueryRow) throws -> (messageID: String, instanceKey: String, event: String) {
            (try columns.text(0), try columns.text(1), try columns.text(2))
        }
    }
}
