extension Queries {
    /// Stores a device's state whole, as ``DeliveryPlan`` made it from the stored one in the same transaction.
    package struct UpsertDeviceState: StoreQuery {
        package let state: DeviceState

        package init(_ state: DeviceState) { self.state = state }

        package func sql(_ dialect: SQLDialect) -> String {
            "\(Self.head) VALUES (\(DeviceStateSchema.columns.map { _ in "?" }.joined(separator: ", "))) \(Self.conflict)"
        }

        /// The insert before its rows, for an engine that stores many rows in one statement.
        package static let head = "INSERT INTO device_states (\(DeviceStateSchema.columns.joined(separator: ", ")))"
        /// After the rows: a stored row is replaced whole.
        package static let conflict =
            "ON CONFLICT (device_id) DO UPDATE SET " + DeviceStateSchema.columns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")

        package var values: [QueryValue] { state.values }
    }
}
