import PushTallyCore

extension Queries {
    /// A push's pending timing in `target` (receipts that came before its `sent_at` was known), each row with its
    /// live shard (`0` where `target` is not sharded).
    struct SelectPendingTiming: RowQuery {
        let target: RollupTarget
        let pushID: String

        func sql(_ dialect: SQLDialect) -> String {
            "SELECT \(dialect.shards(target) ? "shard" : "0::bigint"), clock, second, count FROM \(target.pending) WHERE push_id = ?"
        }

        var values: [QueryValue] { [.text(pushID)] }

        func row(_ columns: some QueryRow) throws -> (shard: Int64, pending: TimingSettlement.Pending) {
            (try columns.int64(0),
             TimingSettlement.Pending(clock: Int(try columns.int64(1)), second: try columns.int64(2), count: try columns.int64(3)))
        }
    }
}
