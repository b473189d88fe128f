extension Queries {
    /// Stored device states: the devices `keys` names (at most ``maxKeys``), or every device sent a push at or
    /// after `sentSince` (by the `last_sent_at` index).
    package struct SelectDeviceStates: RowQuery {
        package static let maxKeys = 500

        package let keys: [String]?
        package let sentSince: Int64

        package init(keys: [String]) {
            self.keys = keys
            sentSince = 0
        }

        package init(sentSince: Int64) {
            keys = nil
            self.sentSince = sentSince
        }

        package func sql(_ dialect: SQLDialect) -> String {
            let columns = DeviceStateSchema.columns.joined(separator: ", ")
            if let keys {
                return "SELECT \(columns) FROM device_states WHERE device_id IN (\(Array(repeating: "?", count: max(keys.count, 1)).joined(separator: ", ")))"
            }
            return "SELECT \(columns) FROM device_states WHERE last_sent_at >= ?"
        }

        package var values: [QueryValue] {
            guard let keys else { return [.integer(sentSince)] }
            return keys.isEmpty ? [.text(nil)] : keys.map { .text($0) }
        }

        package func row(_ columns: some QueryRow) throws -> DeviceState { try DeviceState(row: columns) }
    }
}
