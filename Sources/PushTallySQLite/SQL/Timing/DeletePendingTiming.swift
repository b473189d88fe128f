import PushTallyCore

extension Queries {
    /// Deletes a push's pending timing rows from one target's pending table, once they are settled.
    struct DeletePendingTiming: StoreQuery {
        let table: String
        let pushID: String

        func sql(_ dialect: SQLDialect) -> String {
            "DELETE FROM \(table) WHERE push_id = ?"
        }

        var values: [QueryValue] { [.text(pushID)] }
    }
}
