import PushTallyCore

/// A raw event of an attribution scenario, as the test generated it (not as a store keeps it).
struct ScenarioEvent: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case display
        /// An action on the push: `open`, a custom action, or `dismiss` (which is no tap).
        case action(String)
        case session
        case conversion
    }

    var device: String
    var kind: Kind
    /// The push a display or action is of; empty for sessions and conversions.
    var push: String = ""
    var time: Int64
    /// A session's `session_id`, a conversion's `conversion_id` (optional there), a display's `receipt_id`.
    var id: String?
    var valueMicros: Int64?
    var currency: String?
    /// A copy the client sent again: it must count once, so the recount leaves it out.
    var isRetry = false
}

/// What a recount credits to one push, or the totals over every session and conversion.
struct RecountFigures: Sendable, Hashable, CustomStringConvertible {
    var directOpens: Int64 = 0
    var influencedOpens: Int64 = 0
    var unattributedSessions: Int64 = 0
    var conversionsDirect: Int64 = 0
    var conversionsInfluenced: Int64 = 0
    var conversionsUnattributed: Int64 = 0
    var valueDirect: [String: Int64] = [:]
    var valueInfluenced: [String: Int64] = [:]
    var valueUnattributed: [String: Int64] = [:]

    /// The figures a store reports, in the recount's terms, so the two compare with `==`.
    init(_ outcomes: Outcomes) {
        directOpens = outcomes.directOpens
        influencedOpens = outcomes.influencedOpens
        unattributedSessions = outcomes.unattributedSessions
        conversionsDirect = outcomes.conversionsDirect
        conversionsInfluenced = outcomes.conversionsInfluenced
        conversionsUnattributed = outcomes.conversionsUnattributed
        // The recount's values are small: millionths in 64 bits compare with ==.
        let micros = { (totals: [String: MoneyTotal]) in totals.mapValues { $0.units * 1_000_000 + $0.micros } }
        valueDirect = micros(outcomes.valueDirect)
        valueInfluenced = micros(outcomes.valueInfluenced)
        valueUnattributed = micros(outcomes.valueUnattributed)
    }

    init() {}

    var description: String {
        "direct \(directOpens) influenced \(influencedOpens) unattributed \(unattributedSessions) | conversions direct "
            + "\(conversionsDirect) \(valueDirect) influenced \(conversionsInfluenced) \(valueInfluenced) unattributed "
            + "\(conversionsUnattributed) \(valueUnattributed)"
    }
}

/// Attribution recounted from raw events by the documented rules, written apart from the engine's planner: every
/// device's whole history, in time order, nothing incremental.
///
/// - A tap is any action but `dismiss`. "Within the window before" includes both ends and the same instant.
/// - A session is a direct open of the latest tap within the direct window; otherwise an influenced open of the
///   latest display within the influence window among the device's 10 latest displays at or before it, whose push
///   has no influenced open on the device yet; otherwise unattributed. Sessions go by (time, session id).
/// - A conversion is direct for the latest tap within the conversion window, otherwise influenced by the latest
///   display within the influence window (no 10 limit, no once per device), otherwise unattributed.
/// - "Latest" orders by (time, push id): a tie goes to the greater push id.
struct AttributionRecount {
    var directMillis: Int64 = 5 * 60 * 1000
    var influenceMillis: Int64 = 24 * 3600 * 1000
    var conversionMillis: Int64 = 3 * 24 * 3600 * 1000

    private(set) var pushes: [String: RecountFigures] = [:]
    private(set) var totals = RecountFigures()

    init(_ events: [ScenarioEvent]) {
        let counted = events.filter { !$0.isRetry }
        for device in Set(counted.map(\.device)).sorted() {
            recount(counted.filter { $0.device == device })
        }
    }

    /// A push's figures; zero for a push nothing was credited to.
    func figures(of push: String) -> RecountFigures { pushes[push] ?? RecountFigures() }

    private mutating func recount(_ events: [ScenarioEvent]) {
        let byTimeThenPush = { (a: ScenarioEvent, b: ScenarioEvent) in a.time != b.time ? a.time < b.time : a.push < b.push }
        let displays = events.filter { $0.kind == .display }.sorted(by: byTimeThenPush)
        let taps = events.filter {
            if case .action(let name) = $0.kind { return name != "dismiss" }
            return false
        }.sorted(by: byTimeThenPush)
        let sessions = events.filter { $0.kind == .session }
            .sorted { $0.time != $1.time ? $0.time < $1.time : ($0.id ?? "") < ($1.id ?? "") }
        var influencedOnDevice: Set<String> = []
        for session in sessions {
            if let tap = taps.last(where: { $0.time <= session.time && $0.time >= session.time - directMillis }) {
                pushes[tap.push, default: RecountFigures()].directOpens += 1
                totals.directOpens += 1
                continue
            }
            let candidates = displays.filter { $0.time <= session.time }.suffix(10)
            if let display = candidates.last(where: {
                $0.time >= session.time - influenceMillis && !influencedOnDevice.contains($0.push)
            }) {
                influencedOnDevice.insert(display.push)
                pushes[display.push, default: RecountFigures()].influencedOpens += 1
                totals.influencedOpens += 1
            } else {
                totals.unattributedSessions += 1
            }
        }
        for conversion in events where conversion.kind == .conversion {
            let value = conversion.valueMicros.map { (conversion.currency ?? "", $0) }
            if let tap = taps.last(where: { $0.time <= conversion.time && $0.time >= conversion.time - conversionMillis }) {
                Self.credit(&pushes[tap.push, default: RecountFigures()], direct: true, value: value)
                Self.credit(&totals, direct: true, value: value)
            } else if let display = displays.last(where: {
                $0.time <= conversion.time && $0.time >= conversion.time - influenceMillis
            }) {
                Self.credit(&pushes[display.push, default: RecountFigures()], direct: false, value: value)
                Self.credit(&totals, direct: false, value: value)
            } else {
                totals.conversionsUnattributed += 1
                if let (currency, micros) = value { totals.valueUnattributed[currency, default: 0] += micros }
            }
        }
    }

    private static func credit(_ figures: inout RecountFigures, direct: Bool, value: (String, Int64)?) {
        if direct {
            figures.conversionsDirect += 1
            if let (currency, micros) = value { figures.valueDirect[currency, default: 0] += micros }
        } else {
            figures.conversionsInfluenced += 1
            if let (currency, micros) = value { figures.valueInfluenced[currency, default: 0] += micros }
        }
    }
}
