import PushTallyCore

extension Queries {
    /// Adds `late` receipts to one of a push's display rows in `target`, of `shard` where the target is sharded
    /// (`nil` where it is not): reports add a push's rows up, so any one of them carries the count.
    struct AddLateReceipts: StoreQuery {
        let target: RollupTarget
        let pushID: String
        let shard: Int64?
        let late: Int64

        func sql(_ dialect: SQLDialect) -> String {
            """
            UPDATE \(target.push) SET late = late + ? WHERE ctid = (SELECT ctid FROM \(target.push) WHERE push_id = ?\
            \(shard == nil ? "" : " AND shard = ?") AND kind = \(EventKind.display.rawValue) AND action = '' LIMIT 1)
            """
        }

        var values: [QueryValue] { [.integer(late), .text(pushID)] + (shard.map { [.integer($0)] } ?? []) }
    }
}
