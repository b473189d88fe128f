import PushTallyCore

extension Queries {
    /// The next `rows` events of the cursor `reattribute` (``DeclareReattributionCursor``), each with its device.
    struct FetchReattributionHistory: RowQuery {
        let rows: Int

        func sql(_ dialect: SQLDialect) -> String { "FETCH \(rows) FROM reattribute" }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> (deviceID: String, event: AttributionPlanner.Event) {
            let event = PostgresAttribution.event(
                id: try columns.int64(1), kind: Int(try columns.int64(2)), pushID: try columns.text(3), action: try columns.text(4),
                time: try columns.int64(5), receiptID: try columns.optionalText(6), code: try columns.optionalInt64(7).map { Int($0) },
                credited: try columns.optionalText(8), value: try columns.optionalInt64(9), currency: try columns.optionalText(10))
            return (try columns.text(0), event)
        }
    }
}
