extension Queries {
    /// Forgets a device's state (`forget --device`).
    package struct DeleteDeviceState: StoreQuery {
        package let deviceKey: String

        package init(deviceKey: String) { self.deviceKey = deviceKey }

        package func sql(_ dialect: SQLDialect) -> String { "DELETE FROM device_states WHERE device_id = ?" }

        package var values: [QueryValue] { [.text(deviceKey)] }
    }
}
