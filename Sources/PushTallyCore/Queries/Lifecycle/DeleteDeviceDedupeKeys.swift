extension Queries {
    /// Deletes the dedupe keys that name one device: those ending with its suffix
    /// (``DedupeKeys/deviceSuffix(keyedDeviceID:)``). An exact suffix match, as `LIKE` would ignore case and read
    /// the hash's `_` as a wildcard.
    package struct DeleteDeviceDedupeKeys: StoreQuery {
        package let suffix: String

        package init(suffix: String) { self.suffix = suffix }

        /// PostgreSQL's `right` takes an `integer` length, and the value binds as `bigint`, which it does not
        /// narrow unasked.
        package func sql(_ dialect: SQLDialect) -> String {
            let tail = dialect == .sqlite ? "substr(key, -?)" : "right(key, ?::integer)"
            return "DELETE FROM dedupe WHERE \(tail) = ?"
        }

        package var values: [QueryValue] { [.integer(Int64(suffix.count)), .text(suffix)] }
    }
}
