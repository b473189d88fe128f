import PushTallyCore

extension Queries {
    /// Deletes the dedupe keys that name one device: those ending with its suffix
    /// (``DedupeKeys/deviceSuffix(keyedDeviceID:)``). An exact suffix match, as `LIKE` would ignore case and read
    /// the hash's `_` as a wildcard.
    struct DeleteDeviceDedupeKeys: StoreQuery {
        let suffix: String

        func sql(_ dialect: SQLDialect) -> String {
            "DELETE FROM dedupe WHERE substr(key, -?) = ?"
        }

        var values: [QueryValue] { [.integer(Int64(suffix.count)), .text(suffix)] }
    }
}
