import PushTallyCore

extension Queries {
    /// Deletes one device's audience rows (by its keyed hash), as the shared schema spells it
    /// (``SQLDialect/forgetAudience(placeholder:)``).
    struct DeleteDeviceAudience: StoreQuery {
        let deviceID: String

        func sql(_ dialect: SQLDialect) -> String {
            dialect.forgetAudience(placeholder: "?")
        }

        var values: [QueryValue] { [.text(deviceID)] }
    }
}
