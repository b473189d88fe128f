import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

/// Receipts' media outcome and extension time and sessions' notification setting on each store: stored as
/// sent (unknown stays unknown), shown in the device timeline, carried through export and import.
@Suite struct MediaPermissionStoreTests {
    static var now: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    static func display(_ device: String, media: ReceiptMedia?, millis: Int64?, at time: Int64) -> IncomingEvent {
        var event = IncomingEvent(pushID: "p1", kind: .display, deviceID: device, deviceTimeMillis: time)
        event.media = media
        event.extensionMillis = millis
        return event
    }

    static func session(_ device: String, _ id: String, _ permission: NotificationPermission?, at time: Int64) -> IncomingEvent {
        var event = IncomingEvent.session(deviceID: device, sessionID: id, deviceTimeMillis: time)
        event.notificationPermission = permission
        return event
    }

    /// What each exported event says of the three fields, sorted (an engine may store a commit's
    /// sessions before its receipts).
    static func reported(_ events: [ExportedEvent]) -> [String] {
        events.map { event in
            let fields = [event.media, event.extension_ms.map(String.init), event.notification_permission].map { $0 ?? "-" }
            return "\(event.kind) \(fields.joined(separator: " "))"
        }.sorted()
    }

    @Test(arguments: StoreKind.allCases) func storedAsSentShownAndCarriedThroughExport(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let now = Self.now
            // Receipts alone (PostgreSQL's prepared receipt statement), then receipts beside a session (its
            // statement of rows), so both of an engine's inserts write the columns.
            _ = try await store.ingest([
                Self.display("dev-a", media: .attached, millis: 840, at: now - 50_000),
                Self.display("dev-b", media: .timedOut, millis: 29_800, at: now - 49_000),
                Self.display("dev-c", media: nil, millis: nil, at: now - 48_000),
            ])
            _ = try await store.ingest([
                Self.display("dev-d", media: ReceiptMedia.none, millis: 0, at: now - 47_000),
                Self.display("dev-e", media: .failed, millis: nil, at: now - 46_000),
                Self.session("dev-a", "s1", .provisional, at: now - 45_000),
                Self.session("dev-b", "s2", nil, at: now - 44_000),
            ])
            let expected = [
                "display attached 840 -", "display timed_out 29800 -", "display - - -", "display none 0 -",
                "display failed - -", "session - - provisional", "session - - -",
            ].sorted()
            let exported = EventsBox()
            _ = try await store.exportEvents(sinceMillis: nil, untilMillis: nil) { exported.append($0) }
            #expect(Self.reported(exported.events) == expected)

            let timeline = try await store.deviceTimeline(deviceID: "dev-a", after: .start, limit: 10).entries
            #expect(timeline.map(\.media) == [.attached, nil])
            #expect(timeline.map(\.extensionMillis) == [840, nil])
            #expect(timeline.map(\.notificationPermission) == [nil, .provisional])
            let unknown = try await store.deviceTimeline(deviceID: "dev-c", after: .start, limit: 10).entries
            #expect(unknown.count == 1 && unknown[0].media == nil && unknown[0].extensionMillis == nil, "unknown, never none")

            let id = try await store.databaseID()
            try await withStore(kind) { (target: any TestStore) async throws -> Void in
                #expect(try await target.importEvents(exported.events, source: id) == expected.count)
                let again = EventsBox()
                _ = try await target.exportEvents(sinceMillis: nil, untilMillis: nil) { again.append($0) }
                #expect(Self.reported(again.events) == expected)
            }
        }
    }

    @Test func exportLinesNameTheFieldsAndReadBack() throws {
        var event = ExportedEvent(
            seq: 1, push_id: "p1", kind: "display", action: nil, received_at: 1, event_time: 1, duplicate: false,
            device_id: nil, receipt_id: nil, platform: nil, app_version: nil, os_version: nil)
        event.media = "timed_out"
        event.extension_ms = 30_000
        let line = try ExportFormat.line(event)
        #expect(line.contains(#""extension_ms":30000"#) && line.contains(#""media":"timed_out""#))
        let stored = StoredEvent(imported: try ExportFormat.event(line: line), source: "")
        #expect(stored.media == .timedOut && stored.extensionMillis == 30_000 && stored.notificationPermission == nil)
    }
}
