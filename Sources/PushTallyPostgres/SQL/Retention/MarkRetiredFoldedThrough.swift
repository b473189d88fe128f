import PushTallyCore

extension Queries {
    /// Records that a retired partition is folded through push id `pushID`, in the transaction that folds that
    /// batch, so a fold that stops part way goes on after it.
    struct MarkRetiredFoldedThrough: StoreQuery {
        let name: String
        let pushID: String

        func sql(_ dialect: SQLDialect) -> String { "UPDATE retired_events SET folded_through = ? WHERE name = ?" }

        var values: [QueryValue] { [.text(pushID), .text(name)] }
    }
}
