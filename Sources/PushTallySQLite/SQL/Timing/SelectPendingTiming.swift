import PushTallyCore

extension Queries {
    /// A push's pending timing rows in one target's pending table (``RollupTarget/pending``), to settle once
    /// its `sent_at` is known.
    struct SelectPendingTiming: RowQuery {
        let table: String
        let pushID: String

        func sql(_ dialect: SQLDialect) -> String {
            "SELECT clock, second, count FROM \(table) WHERE push_id = ?"
        }

        var values: [QueryValue] { [.text(pushID)] }

        func row(_ columns: some QueryRow) throws -> TimingSettlement.Pending {
            TimingSettlement.Pending(clock: Int(try columns.int64(0)), second: try columns.int64(1), count: try columns.int64(2))
        }
    }
}
