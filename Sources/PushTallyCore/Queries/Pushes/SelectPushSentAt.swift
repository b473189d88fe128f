extension Queries {
    /// A registered push's `sent_at` (a row holding `nil` when it has none; no row when it is not registered).
    package struct SelectPushSentAt: RowQuery {
        package let pushID: String

        package init(pushID: String) { self.pushID = pushID }

        package func sql(_ dialect: SQLDialect) -> String {
            "SELECT sent_at FROM pushes WHERE push_id = ?"
        }

        package var values: [QueryValue] { [.text(pushID)] }

        package func row(_ columns: some QueryRow) throws -> Int64? { try columns.optionalInt64(0) }
    }
}
