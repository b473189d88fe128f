import PushTallyCore

extension Queries {
    /// Adds settled late receipts to a push's display row in one target's push table (``RollupTarget/push``).
    struct AddLateDisplays: StoreQuery {
        let table: String
        let pushID: String
        let late: Int64

        func sql(_ dialect: SQLDialect) -> String {
            "UPDATE \(table) SET late = late + ? WHERE push_id = ? AND kind = ? AND action = ''"
        }

        var values: [QueryValue] { [.integer(late), .text(pushID), .integer(Int64(EventKind.display.rawValue))] }
    }
}
