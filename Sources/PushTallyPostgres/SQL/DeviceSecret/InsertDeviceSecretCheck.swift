import PushTallyCore

extension Queries {
    /// Records the device secret's check on the database's first use; one already recorded stays.
    struct InsertDeviceSecretCheck: StoreQuery {
        let check: String

        func sql(_ dialect: SQLDialect) -> String {
            "INSERT INTO meta (key, value) VALUES ('device_secret_check', ?) ON CONFLICT (key) DO NOTHING"
        }

        var values: [QueryValue] { [.text(check)] }
    }
}
