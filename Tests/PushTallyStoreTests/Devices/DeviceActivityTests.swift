import Foundation
import GRDB
import PushTallyCore
@testable import PushTallySQLite
import PushTallyTestSupport
import Testing

/// A device's client times follow the raw events that name it, on both engines, however many of them one commit
/// holds and in whatever order their device clocks put them; events naming no device, and other devices, leave a
/// device's times alone.
@Suite struct DeviceActivityTests {
    @Test(arguments: StoreKind.allCases) func oneCommitsEventsOfADeviceSetItsTimesAsARecountWould(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            try await store.register(PushRegistration(pushID: "p-act", campaign: "c", sentAtMillis: clock.now - 600_000, app: "com.example"))
            let lines = ["dev-a", "dev-b"].map { DeliveryLine(deviceID: $0, platform: "ios", outcome: DeliveryLine.accepted) }
            _ = try await store.recordDeliveries(pushID: "p-act", lines)
            let now = clock.now
            func session(_ id: String, _ at: Int64, _ permission: NotificationPermission) -> IncomingEvent {
                var event = IncomingEvent.session(deviceID: "dev-a", sessionID: id, deviceTimeMillis: now - at, app: "com.example")
                event.notificationPermission = permission
                return event
            }
            // One commit, device clocks out of order: the newest session's setting wins, a dismissal is no open.
            _ = try await store.ingest([
                session("s-1", 100_000, .denied),
                IncomingEvent(pushID: "p-act", kind: .display, deviceID: "dev-a", receiptID: "r-1", deviceTimeMillis: now - 300_000),
                session("s-2", 200_000, .authorized),
                IncomingEvent(pushID: "p-act", kind: .action, action: "open", deviceID: "dev-a", deviceTimeMillis: now - 250_000),
                IncomingEvent(pushID: "p-act", kind: .action, action: "dismiss", deviceID: "dev-a", deviceTimeMillis: now - 50_000),
                IncomingEvent(pushID: "p-act", kind: .display, deviceTimeMillis: now - 10_000),
            ])
            let states = try await store.deviceStates(deviceIDs: ["dev-a", "dev-b"])
            let a = try #require(states["dev-a"])
            #expect(a.firstClientMillis == now - 300_000 && a.lastDisplayMillis == now - 300_000)
            #expect(a.lastOpenMillis == now - 250_000, "a dismissal is not an open")
            #expect(a.lastSessionMillis == now - 100_000 && a.permission == "denied", "the setting of the newest session, not the last stored")
            let b = try #require(states["dev-b"])
            #expect(b.firstClientMillis == nil && b.lastDisplayMillis == nil && b.lastSessionMillis == nil && b.permission == nil)

            // A later commit moves only what is later.
            _ = try await store.ingest([session("s-3", 150_000, .authorized)])
            let again = try #require(try await store.deviceStates(deviceIDs: ["dev-a"])["dev-a"])
            #expect(again.lastSessionMillis == now - 100_000 && again.permission == "denied" && again.firstClientMillis == now - 300_000)
        }
    }

    /// A database that ran the released device-state migration, with its row trigger, keeps no trigger on raw
    /// events once migrated: its writer keeps the times, so no receipt runs a trigger's program.
    @Test func migratedSQLiteDatabasesKeepNoTriggerOnRawEvents() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-activity-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try Migrations.migrator.migrate(queue, upTo: "v25-device-states")
        let triggers = "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events'"
        #expect(try queue.read { try Int.fetchOne($0, sql: triggers) } == 1)
        try Migrations.migrator.migrate(queue)
        #expect(try queue.read { try Int.fetchOne($0, sql: triggers) } == 0)
    }
}
