import PushTallyCore

extension Queries {
    /// Deletes the dedupe keys of one device: every key ending in its suffix
    /// (``DedupeKeys/deviceSuffix(keyedDeviceID:)``).
    struct DeleteDeviceDedupeKeys: StoreQuery {
        let suffix: String

        /// `right` takes an `integer` length; the value binds as `bigint`, which PostgreSQL does not narrow unasked.
        func sql(_ dialect: SQLDialect) -> String { "DELETE FROM dedupe WHERE right(key, ?::integer) = ?" }

        var values: [QueryValue] { [.integer(Int64(suffix.count)), .text(suffix)] }
    }
}
