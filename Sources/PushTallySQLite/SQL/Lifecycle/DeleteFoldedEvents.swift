import PushTallyCore

extension Queries {
    /// Deletes the raw events a batch just folded into the ledger: those of its rowid range that its scope
    /// selects, in the same transaction as the fold.
    struct DeleteFoldedEvents: StoreQuery {
        let afterRow: Int64
        let throughRow: Int64
        let scope: SelectEventsToFold.Scope

        func sql(_ dialect: SQLDialect) -> String {
            "DELETE FROM events WHERE rowid > ? AND rowid <= ? AND \(scope.condition)"
        }

        var values: [QueryValue] { [.integer(afterRow), .integer(throughRow), scope.value] }
    }
}
