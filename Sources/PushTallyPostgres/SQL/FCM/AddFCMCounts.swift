import PushTallyCore

extension Queries {
    /// Adds FCM delivery counts to those held, per push, platform and event.
    struct AddFCMCounts: StoreQuery {
        let counts: [(key: FCMImportPlan.Key, count: Int64)]

        /// Rows a statement may carry: four values each, within the protocol's limit of bindings.
        static let maximumRows = SQLBuilder.maximumBindings / 4

        func sql(_ dialect: SQLDialect) -> String {
            let row = "(?, ?, ?, ?)"
            return "\(FCMDeliverySchema.upsertHead) VALUES \(Array(repeating: row, count: counts.count).joined(separator: ", ")) \(FCMDeliverySchema.upsertTail)"
        }

        var values: [QueryValue] {
            counts.flatMap { key, count -> [QueryValue] in
                [.text(key.pushID), .text(key.platform), .text(key.event), .integer(count)]
            }
        }
    }
}
