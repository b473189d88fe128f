extension Queries {
    /// The app and `sent_at` of a registered push, for its delivery lines; no row when it is not registered.
    package struct SelectDeliveryPush: RowQuery {
        package let pushID: String

        package init(pushID: String) { self.pushID = pushID }

        package func sql(_ dialect: SQLDialect) -> String { "SELECT app, sent_at FROM pushes WHERE push_id = ?" }

        package var values: [QueryValue] { [.text(pushID)] }

        package func row(_ columns: some QueryRow) throws -> (app: String?, sentAt: Int64?) {
            (try columns.optionalText(0), try columns.optionalInt64(1))
        }
    }
}
