import Foundation
import GRDB
import PushTallyCore
import PushTallySQLite

/// Per-device deliveries (`--deliveries N`): N devices sent one push each day for `days` days, posted in posts of
/// 10,000 lines, then the devices report over them. Prints lines per second per day of sends, the report's time,
/// and the database's bytes per device (the device states, and the whole file) after a full checkpoint.
struct DeliveryRounds {
    let devices: Int
    let days: Int
    let directory: URL

    func run() async throws {
        print("== per-device deliveries: \(devices) devices, one push a day for \(days) days, posts of 10,000 lines")
        let path = directory.appendingPathComponent("deliveries.sqlite").path
        let store = try SQLiteStore(path: path)
        let start = Int64(Date().timeIntervalSince1970 * 1000) - Int64(days) * 86_400_000
        var rates: [Double] = []
        for day in 0..<days {
            let pushID = "bench-push-\(day)"
            try await store.register(PushRegistration(
                pushID: pushID, campaign: "bench", sentAtMillis: start + Int64(day) * 86_400_000, app: "com.example"))
            let lines = (0..<devices).map { index in
                DeliveryLine(
                    deviceID: "bench-device-\(index)", platform: index % 3 == 0 ? "android" : "ios",
                    outcome: index % 50 == 0 ? "Unregistered" : DeliveryLine.accepted)
            }
            let time = try await seconds {
                for chunk in stride(from: 0, to: lines.count, by: 10_000) {
                    _ = try await store.recordDeliveries(pushID: pushID, Array(lines[chunk..<min(chunk + 10_000, lines.count)]))
                }
            }
            rates.append(Double(devices) / time)
            print(String(format: "day %d: %.0f lines/s (%.1f s)", day + 1, Double(devices) / time, time))
        }
        let report = try await seconds { _ = try await store.deviceStateCounts(DeviceStateQuery()) }
        store.close()
        let stateBytes = try await DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT SUM(pgsize) FROM dbstat WHERE name IN ('device_states', 'sqlite_autoindex_device_states_1', 'device_states_by_last_sent')") ?? 0
        }
        let fileBytes = try bytesOnDisk(path)
        print(String(format: "deliveries: median %.0f lines/s (%.0f a minute); devices report %.2f s over %d devices",
            median(rates), median(rates) * 60, report, devices))
        print(String(format: "bytes per device: %.0f in device_states (with %d sends each), %.0f in the whole file",
            Double(stateBytes) / Double(devices), days, Double(fileBytes) / Double(devices)))
    }
}
