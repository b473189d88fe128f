import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

/// Every raw-event column an export carries reads back as ingest stored it, on both engines: the export, the
/// device timeline and the webhook outbox read rows through the declared ``EventColumn``s, so a column added to
/// the declarations (wherever it goes in their order) is written and read in the same place.
@Suite struct EventColumnRoundTripTests {
    /// One event of each kind, every column its kind stores filled with a value of its own.
    static func everyColumnFilled(at time: Int64) -> [IncomingEvent] {
        var display = IncomingEvent(
            pushID: "p-round-trip", kind: .display, deviceID: "dev-1", receiptID: "r-display", deviceTimeMillis: time - 60_000,
            platform: "ios", appVersion: "2.1.0", osVersion: "17.4")
        display.media = .attached
        display.extensionMillis = 840
        let action = IncomingEvent(
            pushID: "p-round-trip", kind: .action, action: "reply", deviceID: "dev-1", receiptID: "r-action",
            deviceTimeMillis: time - 50_000, platform: "android", appVersion: "3.0", osVersion: "14")
        var session = IncomingEvent.session(
            deviceID: "dev-1", sessionID: "s-1", deviceTimeMillis: time - 40_000, app: "com.example.app", appVersion: "2.1.1")
        session.notificationPermission = .provisional
        let conversion = IncomingEvent.conversion(
            deviceID: "dev-1", name: "purchase", valueMicros: 12_340_000, currency: "EUR", conversionID: "c-1",
            deviceTimeMillis: time - 30_000)
        return [display, action, session, conversion]
    }

    @Test(arguments: StoreKind.allCases) func everyExportedColumnReadsBackAsStored(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let sent = Self.everyColumnFilled(at: Int64(Date().timeIntervalSince1970 * 1000))
            #expect(try await store.ingest(sent) == [false, false, false, false], "none is a retry")
            let exported = EventsBox()
            _ = try await store.exportEvents(sinceMillis: nil, untilMillis: nil) { exported.append($0) }
            // By receipt id: an engine may store a commit's sessions before its receipts.
            let source = try await store.databaseID()
            let back = Dictionary(uniqueKeysWithValues: exported.events.map { ($0.receipt_id ?? "", StoredEvent(imported: $0, source: source)) })
            try #require(back.count == sent.count, "\(exported.events)")
            // Ingest leaves an event's id to its database and position; only an import stores one.
            #expect(exported.events.map(\.event_id) == exported.events.map { "\(source):\($0.seq)" })
            for column in EventColumns.exported where column != .eventID {
                var filled = false
                for incoming in sent {
                    let stored = try #require(back[incoming.receiptID ?? ""])
                    let expected = column.value(of: StoredEvent(incoming, receivedAt: stored.receivedAt), duplicate: false, credit: nil)
                    let actual = column.value(of: stored, duplicate: stored.duplicate ?? true, credit: nil)
                    filled = filled || ![.text(nil), .integer(nil)].contains(expected)
                    if column == .deviceID {
                        // Stored keyed, never as sent.
                        #expect(actual != expected && actual != .text(nil), "\(column.name) of \(incoming.kind)")
                    } else {
                        #expect(actual == expected, "\(column.name) of \(incoming.kind)")
                    }
                }
                #expect(filled, "no event here fills \(column.name): add it to everyColumnFilled(at:)")
            }
        }
    }
}
