import Testing

@testable import PushTallyCore

/// A device's sends list reads back as it was written, by the byte scan for ids without escapes and by the JSON
/// parser for the rest; what is not a list reads as none.
@Suite struct DeviceSendsTests {
    @Test func theTextReadsBackWhole() {
        var sends = DeviceSends()
        sends.add("p-2", sentMillis: 2_000, keptSinceMillis: 0)
        sends.add(#"p "quoted" \ 推送"#, sentMillis: 3_000, keptSinceMillis: 0)
        sends.add("p-1", sentMillis: 1_000, keptSinceMillis: 0)
        #expect(sends.sends.map(\.pushID) == ["p-1", "p-2", #"p "quoted" \ 推送"#], "in send order")
        #expect(DeviceSends(text: sends.text) == sends, "with an escaped id: the JSON parser")
        var plain = DeviceSends()
        for day in 0..<30 { plain.add("push-\(day)", sentMillis: 1_795_000_000_000 + Int64(day) * 86_400_000, keptSinceMillis: 0) }
        #expect(DeviceSends(text: plain.text) == plain, "the byte scan")
        #expect(DeviceSends(text: "[]") == DeviceSends())
        for broken in ["", "[", "[[\"p\",]]", "{}", "[[\"p\",1]", "[[\"p\",1]]x"] {
            #expect(DeviceSends(text: broken) == DeviceSends(), "\(broken)")
        }
        // Sends older than the kept window are dropped as a send is added.
        plain.add("push-new", sentMillis: 1_795_000_000_000 + 40 * 86_400_000, keptSinceMillis: 1_795_000_000_000 + 20 * 86_400_000)
        #expect(plain.sends.count == 11 && plain.count(sinceMillis: 1_795_000_000_000 + 29 * 86_400_000) == 2)
    }

    @Test func statesAreTestedInTheirOrder() {
        let since: Int64 = 1_000
        var device = DeviceState(deviceKey: "d1:x", app: "a", platform: "ios", lastOutcome: "Unregistered", firstClientMillis: 10, lastDisplayMillis: 2_000)
        #expect(device.state(sinceMillis: since) == .rejected, "a refused last send first")
        device.lastOutcome = DeliveryLine.accepted
        #expect(device.state(sinceMillis: since) == .ignoring)
        device.lastOpenMillis = 1_500
        #expect(device.state(sinceMillis: since) == .engaged)
        device.lastDisplayMillis = 500
        #expect(device.state(sinceMillis: since) == .gone, "a display before the window only")
        device.lastSessionMillis = 1_200
        #expect(device.state(sinceMillis: since) == .muted)
        device.firstClientMillis = nil
        #expect(device.state(sinceMillis: since) == .unknown)
        #expect(DarkState.allCases.filter(\.isDark) == [.rejected, .unknown, .gone, .muted])
    }
}
