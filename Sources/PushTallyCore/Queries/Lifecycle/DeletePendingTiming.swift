extension Queries {
    /// Deletes a push's pending timing rows in `target`, once they are settled into its histogram and late count.
    package struct DeletePendingTiming: StoreQuery {
        package let target: RollupTarget
        package let pushID: String

        package init(target: RollupTarget, pushID: String) {
            self.target = target
            self.pushID = pushID
        }

        package func sql(_ dialect: SQLDialect) -> String { "DELETE FROM \(target.pending) WHERE push_id = ?" }

        package var values: [QueryValue] { [.text(pushID)] }
    }
}
