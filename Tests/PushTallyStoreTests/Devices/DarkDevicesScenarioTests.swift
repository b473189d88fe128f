import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

/// 10,000 devices over 35 days on iOS, Android and the web, each planted in one of the six states, on both
/// engines: the devices report counts exactly the planted states, `deviceStates` answers each device's, a second
/// post of the same deliveries changes nothing, the stored client times equal a recount of the raw events, and
/// `forget --device` removes a device.
@Suite struct DarkDevicesScenarioTests {
    static let devices = 10_000
    static let platforms = ["ios", "android", "web"]
    static let day: Int64 = 86_400

    /// Device `index`'s planted state and platform.
    static func planted(_ index: Int) -> (state: DarkState, platform: String) {
        (DarkState.allCases[index % DarkState.allCases.count], platforms[(index / DarkState.allCases.count) % platforms.count])
    }

    static func id(_ index: Int) -> String { "install-\(index)" }

    /// The client events that make device `index` its planted state (all but `gone`'s, which are older).
    static func events(_ index: Int, pushID: String) -> [IncomingEvent] {
        let (state, platform) = planted(index)
        let device = id(index)
        let display = IncomingEvent(pushID: pushID, kind: .display, deviceID: device, receiptID: "r-\(index)", platform: platform)
        var session = IncomingEvent(pushID: "", kind: .session, deviceID: device, receiptID: "s-\(index)", platform: platform)
        session.app = "com.example"
        session.notificationPermission = index % 2 == 0 ? .denied : .authorized
        switch state {
        case .engaged: return [display, IncomingEvent(pushID: pushID, kind: .action, action: "open", deviceID: device, platform: platform)]
        case .ignoring, .rejected: return [display]
        case .muted: return [session]
        case .unknown, .gone: return []
        }
    }

    @Test(arguments: StoreKind.allCases) func eachPlantedStateIsCountedAndAnsweredExactly(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            let all = Array(0..<Self.devices)
            // Day 0: the gone devices' apps are used, then never again.
            let gone = all.filter { Self.planted($0).state == .gone }
            for chunk in stride(from: 0, to: gone.count, by: 1000) {
                _ = try await store.ingest(gone[chunk..<min(chunk + 1000, gone.count)].map { index in
                    IncomingEvent(pushID: "p-old", kind: .display, deviceID: Self.id(index), receiptID: "old-\(index)", platform: Self.planted(index).platform)
                })
            }
            clock.advance(seconds: 35 * Self.day)
            try await store.register(PushRegistration(
                pushID: "p-dark", campaign: "dark", sentAtMillis: clock.now - 2 * Self.day * 1000, app: "com.example"))
            // Half the devices' client events come before the deliveries (the state starts from them), half after
            // (the events trigger keeps it).
            let before = all.filter { $0 % 4 < 2 }
            let after = all.filter { $0 % 4 >= 2 }
            try await Self.ingest(before, store)
            let lines = all.map { index in
                let (state, platform) = Self.planted(index)
                let refusal = platform == "android" ? "UNREGISTERED" : "Unregistered"
                return DeliveryLine(
                    deviceID: Self.id(index), platform: platform, outcome: state == .rejected ? refusal : DeliveryLine.accepted,
                    recipient: "user-\(index)")
            }
            let first = try await store.recordDeliveries(pushID: "p-dark", lines)
            let rejected = all.filter { Self.planted($0).state == .rejected }.count
            #expect(first == DeliverySummary(lines: Self.devices, stored: Self.devices, accepted: Self.devices - rejected, refused: rejected))
            clock.advance(seconds: 60)
            try await Self.ingest(after, store)

            try await Self.checkReport(store, expected: Self.expectedCounts(all))
            // The same deliveries again: nothing changes, in the report or in the push's figures.
            let funnel = try await store.pushFigures(ReportFilter(pushID: "p-dark")).first?.funnel
            #expect(try await store.recordDeliveries(pushID: "p-dark", lines) == DeliverySummary(lines: Self.devices, repeated: Self.devices))
            try await Self.checkReport(store, expected: Self.expectedCounts(all))
            let again = try await store.pushFigures(ReportFilter(pushID: "p-dark")).first?.funnel
            #expect(again?.sent == funnel?.sent && again?.targeted == Int64(Self.devices) && again?.sent == Int64(lines.filter(\.isAccepted).count))

            // Each device's answer is its planted state.
            let states = try await store.deviceStates(deviceIDs: all.map(Self.id) + ["never-sent"])
            let since = DeviceStateQuery().sinceMillis(nowMillis: clock.now)
            var wrong: [String] = []
            for index in all where states[Self.id(index)]?.state(sinceMillis: since) != Self.planted(index).state {
                wrong.append("\(index): \(String(describing: states[Self.id(index)]))")
            }
            #expect(wrong.isEmpty, "\(wrong.prefix(5))")
            #expect(states["never-sent"] == nil && states[Self.id(3)]?.recipient == "user-3")
            let muted = all.filter { Self.planted($0).state == .muted }
            #expect(muted.allSatisfy { states[Self.id($0)]?.permission == ($0 % 2 == 0 ? "denied" : "authorized") })

            // The client times equal a recount of the raw events.
            try await Self.checkRecount(store, states: states)

            // Forgotten: the device is in no count.
            let forgotten = all.first { Self.planted($0).state == .engaged && Self.planted($0).platform == "web" }!
            _ = try await store.forget(deviceID: Self.id(forgotten))
            var expected = Self.expectedCounts(all)
            expected["com.example\u{0}web"]?[.engaged]! -= 1
            try await Self.checkReport(store, expected: expected)
        }
    }

    static func ingest(_ indices: [Int], _ store: any PushTallyStore) async throws {
        let events = indices.flatMap { Self.events($0, pushID: "p-dark") }
        for chunk in stride(from: 0, to: events.count, by: 1000) {
            _ = try await store.ingest(Array(events[chunk..<min(chunk + 1000, events.count)]))
        }
    }

    static func expectedCounts(_ indices: [Int]) -> [String: [DarkState: Int64]] {
        var counts: [String: [DarkState: Int64]] = [:]
        for index in indices {
            let (state, platform) = planted(index)
            counts["com.example\u{0}" + platform, default: Dictionary(uniqueKeysWithValues: DarkState.allCases.map { ($0, 0) })][state]! += 1
        }
        return counts
    }

    static func checkReport(_ store: any PushTallyStore, expected: [String: [DarkState: Int64]]) async throws {
        let rows = try await store.deviceStateCounts(DeviceStateQuery())
        var got: [String: [DarkState: Int64]] = [:]
        for row in rows {
            got[row.app + "\u{0}" + row.platform] = Dictionary(uniqueKeysWithValues: DarkState.allCases.map { ($0, row.devices[$0] ?? 0) })
            #expect(row.sentTo == row.devices.values.reduce(0, +))
        }
        #expect(got == expected)
        let table = DevicesReport.table(rows, query: DeviceStateQuery())
        #expect(table.rows.count == 3, "one row per app and platform")
    }

    /// Each device's first event, last display, last open and last session as the raw events tell them.
    static func checkRecount(_ store: any PushTallyStore, states: [String: DeviceState]) async throws {
        let exported = EventsBox()
        _ = try await store.exportEvents(sinceMillis: nil, untilMillis: nil) { exported.append($0) }
        var recount: [String: (first: Int64, display: Int64?, open: Int64?, session: Int64?)] = [:]
        for event in exported.events {
            guard let device = event.device_id else { continue }
            var entry = recount[device] ?? (event.event_time, nil, nil, nil)
            entry.first = min(entry.first, event.event_time)
            switch event.kind {
            case "display": entry.display = max(entry.display ?? .min, event.event_time)
            case "action" where event.action != "dismiss": entry.open = max(entry.open ?? .min, event.event_time)
            case "session": entry.session = max(entry.session ?? .min, event.event_time)
            default: break
            }
            recount[device] = entry
        }
        var differing: [String] = []
        for state in states.values {
            let counted = recount[state.deviceKey]
            if state.firstClientMillis != counted?.first || state.lastDisplayMillis != counted?.display
                || state.lastOpenMillis != counted?.open || state.lastSessionMillis != counted?.session
            {
                differing.append(state.deviceKey)
            }
        }
        #expect(differing.isEmpty, "\(differing.count) devices' client times differ from the raw events")
    }
}
