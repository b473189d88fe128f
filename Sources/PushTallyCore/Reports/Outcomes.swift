/// What pushes caused: sessions and conversions by how they were credited, values per currency in
/// millionths. For one push (or a campaign) the unattributed fields stay 0; totals fill them.
public struct Outcomes: Sendable, Hashable {
    /// Sessions right after a tap of the push (already counted as opens; shown, never added to them).
    public var directOpens: Int64 = 0
    /// Sessions credited to a push displayed shortly before, at most one per push and device.
    public var influencedOpens: Int64 = 0
    public var unattributedSessions: Int64 = 0
    public var conversionsDirect: Int64 = 0
    public var conversionsInfluenced: Int64 = 0
    public var conversionsUnattributed: Int64 = 0
    /// Conversion values by ISO 4217 code, in millionths, by how they were credited.
    public var valueDirect: [String: Int64] = [:]
    public var valueInfluenced: [String: Int64] = [:]
    public var valueUnattributed: [String: Int64] = [:]

    public init() {}

    /// Conversions credited to a push, directly or by influence (never both: each conversion has one credit).
    public var conversions: Int64 { conversionsDirect + conversionsInfluenced }
    /// The value of ``conversions`` per currency.
    public var conversionValue: [String: Int64] { valueDirect.merging(valueInfluenced, uniquingKeysWith: +) }
    public var sessions: Int64 { directOpens + influencedOpens + unattributedSessions }
    public var allConversions: Int64 { conversions + conversionsUnattributed }

    /// Adds one outcome rollup row, summed per (push, measure, currency) or (measure, currency).
    package mutating func add(measure: OutcomeMeasure, currency: String, count: Int64, valueMicros: Int64) {
        // A row keeps its key after every outcome under it moved to another credit (count and value back to 0);
        // adding it would show a currency no conversion has, which a rebuild would not.
        guard count != 0 else { return }
        switch measure {
        case .directOpen: directOpens += count
        case .influencedOpen: influencedOpens += count
        case .unattributedSession: unattributedSessions += count
        case .directConversion: conversionsDirect += count
        case .influencedConversion: conversionsInfluenced += count
        case .unattributedConversion: conversionsUnattributed += count
        }
        guard !currency.isEmpty else { return }
        switch measure {
        case .directConversion: valueDirect[currency, default: 0] += valueMicros
        case .influencedConversion: valueInfluenced[currency, default: 0] += valueMicros
        case .unattributedConversion: valueUnattributed[currency, default: 0] += valueMicros
        default: break
        }
    }

    public mutating func add(_ other: Outcomes) {
        directOpens += other.directOpens
        influencedOpens += other.influencedOpens
        unattributedSessions += other.unattributedSessions
        conversionsDirect += other.conversionsDirect
        conversionsInfluenced += other.conversionsInfluenced
        conversionsUnattributed += other.conversionsUnattributed
        valueDirect.merge(other.valueDirect, uniquingKeysWith: +)
        valueInfluenced.merge(other.valueInfluenced, uniquingKeysWith: +)
        valueUnattributed.merge(other.valueUnattributed, uniquingKeysWith: +)
    }
}
