import PushTallyCore

extension Queries {
    /// Deletes the audience rows of one device, by its keyed id.
    struct ForgetAudience: StoreQuery {
        let deviceID: String

        func sql(_ dialect: SQLDialect) -> String { dialect.forgetAudience(placeholder: "?") }

        var values: [QueryValue] { [.text(deviceID)] }
    }
}
