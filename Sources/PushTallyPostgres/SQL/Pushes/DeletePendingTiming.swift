import PushTallyCore

extension Queries {
    /// Deletes a push's pending timing in `target`, once settled into its histogram and late count.
    struct DeletePendingTiming: StoreQuery {
        let target: RollupTarget
        let pushID: String

        func sql(_ dialect: SQLDialect) -> String { "DELETE FROM \(target.pending) WHERE push_id = ?" }

        var values: [QueryValue] { [.text(pushID)] }
    }
}
