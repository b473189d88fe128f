import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

/// The support timeline on each store: one device's events in event-time order, keyed lookup, pages, forget.
@Suite struct DeviceTimelineStoreTests {
    static var now: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    static func event(_ kind: EventKind, push: String = "", action: String = "", device: String, at millis: Int64) -> IncomingEvent {
        IncomingEvent(pushID: push, kind: kind, action: action, deviceID: device, deviceTimeMillis: millis, appVersion: "2.1", osVersion: "18.1")
    }

    /// Everything of `device`, page by page.
    static func all(_ store: any TestStore, _ device: String, limit: Int) async throws -> (entries: [TimelineEntry], pages: Int) {
        var entries: [TimelineEntry] = []
        var cursor = TimelineCursor.start
        var pages = 0
        while true {
            let page = try await store.deviceTimeline(deviceID: device, after: cursor, limit: limit)
            pages += 1
            entries += page.entries
            guard let next = page.next else { return (entries, pages) }
            #expect(page.entries.count == limit, "only a full page says more remain")
            cursor = next
        }
    }

    @Test(arguments: StoreKind.allCases) func eventsComeBackByEventTimeWithWhatTheirPushAdds(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let now = Self.now
            try await store.register(PushRegistration(pushID: "p1", campaign: "spring", sentAtMillis: now - 60_000, app: "com.example"))
            // Posted out of time order: the conversion and session first, the display they follow last.
            var conversion = IncomingEvent.conversion(
                deviceID: "dev-a", name: "purchase", valueMicros: 9_990_000, currency: "USD", conversionID: "c1",
                deviceTimeMillis: now - 10_000)
            conversion.appVersion = "2.1"
            _ = try await store.ingest([conversion])
            _ = try await store.ingest([.session(deviceID: "dev-a", sessionID: "s1", deviceTimeMillis: now - 30_000, app: "com.example.app")])
            _ = try await store.ingest([Self.event(.action, push: "p1", action: "open", device: "dev-a", at: now - 40_000)])
            _ = try await store.ingest([Self.event(.display, push: "p1", device: "dev-a", at: now - 50_000)])
            _ = try await store.ingest([Self.event(.display, push: "p1", device: "dev-b", at: now - 45_000)])

            let page = try await store.deviceTimeline(deviceID: "dev-a", after: .start, limit: 100)
            #expect(page.entries.map(\.kind) == [.display, .action, .session, .conversion])
            #expect(page.next == nil)
            let (display, tap, session, bought) = (page.entries[0], page.entries[1], page.entries[2], page.entries[3])
            #expect(display.pushID == "p1")
            #expect(display.campaign == "spring")
            #expect(display.app == "com.example")
            #expect(display.timeToDisplaySeconds == 10)
            #expect(display.appVersion == "2.1" && display.osVersion == "18.1")
            #expect(display.eventTimeMillis == now - 50_000)
            #expect(tap.action == "open" && tap.pushID == "p1" && tap.timeToDisplaySeconds == nil)
            #expect(session.pushID == nil && session.clientID == "s1" && session.app == "com.example.app")
            #expect(session.attribution == .direct(pushID: "p1"))
            #expect(session.campaign == "spring")
            #expect(bought.clientID == "c1" && bought.name == "purchase")
            #expect(bought.valueMicros == 9_990_000 && bought.currency == "USD")
            #expect(bought.attribution == .direct(pushID: "p1"))
            #expect(page.entries.allSatisfy { !$0.duplicate })
            let json = page.json
            #expect(json.contains(#""value":9.99,"currency":"USD","attribution":"direct","attributed_push":"p1""#), "\(json)")
            #expect(json.contains(#""type":"display""#) && json.contains(#""time_to_display_s":10"#), "\(json)")
            #expect(!json.contains("\"next\""))

            // Keyed lookup: another device's events never appear, an unknown device has none.
            let other = try await store.deviceTimeline(deviceID: "dev-b", after: .start, limit: 100)
            #expect(other.entries.count == 1)
            #expect(other.entries.first?.eventTimeMillis == now - 45_000)
            #expect(try await store.deviceTimeline(deviceID: "dev-c", after: .start, limit: 100).entries.isEmpty)
            // The stored id is the keyed hash: the raw id finds nothing by itself.
            #expect(try await store.column("SELECT device_id FROM events").allSatisfy { $0?.hasPrefix("d1:") == true })
        }
    }

    @Test(arguments: StoreKind.allCases) func pagesFollowEachOtherWithoutGapOrRepeat(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let now = Self.now
            // Seven events, three of them in the same millisecond: the row id orders those.
            let times: [Int64] = [now - 9_000, now - 5_000, now - 5_000, now - 7_000, now - 5_000, now - 1_000, now - 8_000]
            for (index, time) in times.enumerated() {
                _ = try await store.ingest([
                    IncomingEvent(pushID: "p\(index)", kind: .display, deviceID: "dev-page", receiptID: "r\(index)", deviceTimeMillis: time)
                ])
            }
            let whole = try await store.deviceTimeline(deviceID: "dev-page", after: .start, limit: 1000)
            #expect(whole.entries.count == 7)
            #expect(whole.entries.map(\.eventTimeMillis) == times.sorted())
            // Within one millisecond, the order they arrived in.
            #expect(whole.entries.filter { $0.eventTimeMillis == now - 5_000 }.map(\.pushID) == ["p1", "p2", "p4"])
            for limit in [1, 2, 3, 7] {
                let (entries, pages) = try await Self.all(store, "dev-page", limit: limit)
                #expect(entries == whole.entries, "limit \(limit)")
                // The last page is never empty: a page says more remain only when they do.
                #expect(pages == (7 + limit - 1) / limit, "limit \(limit)")
            }
            let first = try await store.deviceTimeline(deviceID: "dev-page", after: .start, limit: 3)
            #expect(first.entries.count == 3)
            let next = try #require(first.next)
            #expect(first.json.contains("\"next\":\"\(next.text)\""))
            #expect(try TimelineCursor(text: next.text) == next)
            let second = try await store.deviceTimeline(deviceID: "dev-page", after: next, limit: 3)
            #expect(second.entries == Array(whole.entries[3..<6]))
        }
    }

    @Test(arguments: StoreKind.allCases) func aForgottenDeviceHasAnEmptyTimeline(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let now = Self.now
            _ = try await store.ingest([
                Self.event(.display, push: "p1", device: "dev-gone", at: now - 3_000),
                Self.event(.action, push: "p1", action: "open", device: "dev-gone", at: now - 2_000),
                .session(deviceID: "dev-gone", sessionID: "s1", deviceTimeMillis: now - 1_000),
                Self.event(.display, push: "p1", device: "dev-kept", at: now - 3_000),
            ])
            #expect(try await store.deviceTimeline(deviceID: "dev-gone", after: .start, limit: 100).entries.count == 3)
            #expect(try await store.forget(deviceID: "dev-gone") == 3)
            let page = try await store.deviceTimeline(deviceID: "dev-gone", after: .start, limit: 100)
            #expect(page.entries.isEmpty && page.next == nil)
            #expect(page.json == #"{"events":[]}"#)
            #expect(try await store.deviceTimeline(deviceID: "dev-kept", after: .start, limit: 100).entries.count == 1)
        }
    }
}
