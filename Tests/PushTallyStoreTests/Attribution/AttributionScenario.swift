import PushTallyCore
import PushTallyTestSupport

/// A seeded random attribution scenario: a few devices, registered pushes, displays, taps, sessions and
/// conversions whose times land on the window edges (exactly, and a millisecond either side) as often as
/// between them, plus retries. Every time lies in the 6 days before ``now``, inside what a store keeps as sent.
struct AttributionScenario {
    /// The store's clock while the scenario is ingested (the test clock's default).
    static let now: Int64 = 1_795_000_000_000
    static let start = now - 6 * day
    static let minute: Int64 = 60_000
    static let day: Int64 = 24 * 3600 * 1000
    static let pushIDs = (0..<14).map { String(format: "p%02d", $0) }
    static let currencies = ["USD", "EUR", "JPY"]

    private(set) var events: [ScenarioEvent] = []
    let registrations: [PushRegistration]

    init(seed: UInt64) {
        var rng = SplitMix64(state: seed)
        // The last push stays unregistered: its credits show on the orphan row.
        registrations = Self.pushIDs.dropLast().enumerated().map { index, push in
            PushRegistration(pushID: push, campaign: "c\(index % 3)", counts: SendCounts(sent: 40))
        }
        for device in 0..<Int.random(in: 2...5, using: &rng) {
            events += Self.device("dev-\(device)", rng: &rng)
        }
        var retries: [ScenarioEvent] = []
        for event in events where Int.random(in: 0..<7, using: &rng) == 0 {
            var copy = event
            // A conversion without an id cannot be told from a second one: it counts again.
            copy.isRetry = event.kind != .conversion || event.id != nil
            retries.append(copy)
        }
        events += retries
    }

    /// Every event as the store takes it, in the scenario's order.
    var incoming: [IncomingEvent] { events.map(Self.incoming) }

    /// What a campaign's pushes are, by campaign (`nil` for the orphan row).
    var pushesByCampaign: [String?: [String]] {
        var campaigns: [String?: [String]] = [nil: [Self.pushIDs.last!]]
        for registration in registrations { campaigns[registration.campaign, default: []].append(registration.pushID) }
        return campaigns
    }

    static func incoming(_ event: ScenarioEvent) -> IncomingEvent {
        switch event.kind {
        case .display:
            IncomingEvent(pushID: event.push, kind: .display, deviceID: event.device, receiptID: event.id, deviceTimeMillis: event.time)
        case .action(let name):
            IncomingEvent(pushID: event.push, kind: .action, action: name, deviceID: event.device, deviceTimeMillis: event.time)
        case .session:
            .session(deviceID: event.device, sessionID: event.id!, deviceTimeMillis: event.time, app: "com.example.app")
        case .conversion:
            .conversion(
                deviceID: event.device, name: "purchase", valueMicros: event.valueMicros, currency: event.currency,
                conversionID: event.id, deviceTimeMillis: event.time)
        }
    }

    /// One device's events: each push displayed at most once and each action at most once per push, since a
    /// second one would be a retry (the store keeps the first to arrive, whose time would then depend on order).
    /// A busy device gets more than 10 displays within hours and more sessions after them than it has displays,
    /// so the 10-display limit decides some credits.
    private static func device(_ device: String, rng: inout SplitMix64) -> [ScenarioEvent] {
        var displays: [ScenarioEvent] = []
        var taps: [ScenarioEvent] = []
        var times: [Int64] = []
        let busy = Int.random(in: 0..<3, using: &rng) == 0
        let burst = start + Int64.random(in: 0..<(4 * 24 * 60), using: &rng) * minute
        func pushTime() -> Int64 {
            // Minutes over five days (six hours on a busy device), sometimes an instant already used, so ties in
            // time occur.
            if !times.isEmpty, Int.random(in: 0..<6, using: &rng) == 0 { return times.randomElement(using: &rng)! }
            let time = busy
                ? burst + Int64.random(in: 0..<(6 * 60), using: &rng) * minute
                : start + Int64.random(in: 0..<(5 * 24 * 60), using: &rng) * minute
            times.append(time)
            return time
        }
        for push in pushIDs.shuffled(using: &rng).prefix(busy ? Int.random(in: 11...14, using: &rng) : Int.random(in: 0...13, using: &rng)) {
            let receipt = Bool.random(using: &rng) ? "r-\(device)-\(push)" : nil
            displays.append(ScenarioEvent(device: device, kind: .display, push: push, time: pushTime(), id: receipt))
        }
        for push in pushIDs where Int.random(in: 0..<3, using: &rng) == 0 {
            let shown = displays.first { $0.push == push }?.time
            for name in ["open", "view", "dismiss"].shuffled(using: &rng).prefix(Int.random(in: 1...2, using: &rng)) {
                let time = shown.map { min($0 + Int64.random(in: 0...20, using: &rng) * minute, now) } ?? pushTime()
                taps.append(ScenarioEvent(device: device, kind: .action(name), push: push, time: time))
            }
        }
        var outcomes: [ScenarioEvent] = []
        for index in 0..<(busy ? Int.random(in: 11...15, using: &rng) : Int.random(in: 0...9, using: &rng)) {
            var time = busy && Int.random(in: 0..<4, using: &rng) != 0
                ? burst + 6 * 3600_000 + Int64.random(in: 0..<(12 * 3600_000), using: &rng)
                : outcomeTime(displays: displays, taps: taps, tapWindow: 5 * minute, rng: &rng)
            if let previous = outcomes.last, Int.random(in: 0..<8, using: &rng) == 0 { time = previous.time }
            outcomes.append(ScenarioEvent(device: device, kind: .session, time: time, id: "s\(index)"))
        }
        for index in 0..<Int.random(in: 0...7, using: &rng) {
            let time = outcomeTime(displays: displays, taps: taps, tapWindow: 3 * day, rng: &rng)
            var conversion = ScenarioEvent(
                device: device, kind: .conversion, time: time, id: Int.random(in: 0..<4, using: &rng) == 0 ? nil : "c\(index)")
            if Int.random(in: 0..<4, using: &rng) != 0 {
                // Whole cents or a tenth, so sums such as 0.1 + 0.2 come up.
                conversion.valueMicros = Bool.random(using: &rng) ? 100_000 : Int64.random(in: 1...9_999, using: &rng) * 10_000
                conversion.currency = currencies.randomElement(using: &rng)!
            }
            outcomes.append(conversion)
        }
        return displays + taps + outcomes
    }

    /// A session's or conversion's time: on a window edge of one of the device's taps or displays (exactly,
    /// one millisecond inside or outside), at the same instant, somewhere inside a window, or anywhere.
    private static func outcomeTime(
        displays: [ScenarioEvent], taps: [ScenarioEvent], tapWindow: Int64, rng: inout SplitMix64
    ) -> Int64 {
        let anywhere = start + Int64.random(in: 0..<(6 * day), using: &rng)
        let edge = Int64.random(in: -1...1, using: &rng)
        let time: Int64
        switch Int.random(in: 0..<6, using: &rng) {
        case 0 where !taps.isEmpty: time = taps.randomElement(using: &rng)!.time + tapWindow + edge
        case 1 where !displays.isEmpty: time = displays.randomElement(using: &rng)!.time + day + edge
        case 2 where !displays.isEmpty || !taps.isEmpty: time = (displays + taps).randomElement(using: &rng)!.time
        case 3 where !displays.isEmpty: time = displays.randomElement(using: &rng)!.time + Int64.random(in: 0..<day, using: &rng)
        default: time = anywhere
        }
        return time <= now ? time : anywhere
    }
}
