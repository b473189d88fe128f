import PushTallyCore

extension Queries {
    /// Up to `limit` push ids of the retired partition `table` in order, after `after` (from the first, `''`
    /// included, when `nil`).
    struct SelectRetiredPushIDs: RowQuery {
        let table: String
        let after: String?
        let limit: Int

        func sql(_ dialect: SQLDialect) -> String {
            """
            SELECT DISTINCT push_id FROM \(table) \(after == nil ? "" : "WHERE push_id > ?") \
            ORDER BY 1 LIMIT \(limit)
            """
        }

        var values: [QueryValue] { after.map { [.text($0)] } ?? [] }

        func row(_ columns: some QueryRow) throws -> String { try columns.text(0) }
    }
}
