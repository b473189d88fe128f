/// What pushes caused: sessions and conversions by how they were credited, values per currency
/// (``MoneyTotal``). For one push (or a campaign) the unattributed fields stay 0; totals fill them.
public struct Outcomes: Sendable, Hashable {
    /// Sessions right after a tap of the push (already counted as opens; shown, never added to them).
    public var directOpens: Int64 = 0
    /// Sessions credited to a push displayed shortly before, at most one per push and device.
    public var influencedOpens: Int64 = 0
    public var unattributedSessions: Int64 = 0
    public var conversionsDirect: Int64 = 0
    public var conversionsInfluenced: Int64 = 0
    public var conversionsUnattributed: Int64 = 0
    /// Conversion values by ISO 4217 code, by how they were credited.
    public private(set) var valueDirect: [String: MoneyTotal] = [:]
    public private(set) var valueInfluenced: [String: MoneyTotal] = [:]
    public private(set) var valueUnattributed: [String: MoneyTotal] = [:]
    /// The first value that did not fit (``MoneyTotal``): the figures that hold it cannot be reported.
    public private(set) var outOfRange: String?

    public init() {}

    /// Throws when a value did not add up (``outOfRange``): the totals holding it cannot be reported.
    public func checkRange() throws(TotalOutOfRange) {
        if let outOfRange { throw TotalOutOfRange(field: outOfRange) }
    }

    /// Conversions credited to a push, directly or by influence (never both: each conversion has one credit).
    public var conversions: Int64 { conversionsDirect + conversionsInfluenced }
    /// The value of ``conversions`` per currency: direct and influenced, kept as they are added.
    public private(set) var conversionValue: [String: MoneyTotal] = [:]
    public var sessions: Int64 { directOpens + influencedOpens + unattributedSessions }
    public var allConversions: Int64 { conversions + conversionsUnattributed }

    /// Adds one outcome rollup row, summed per (push, measure, currency) or (measure, currency).
    package mutating func add(measure: OutcomeMeasure, currency: String, count: Int64, value: MoneyTotal) {
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
        case .directConversion:
            Self.add(value, currency, to: &valueDirect, outOfRange: &outOfRange)
            Self.add(value, currency, to: &conversionValue, outOfRange: &outOfRange)
        case .influencedConversion:
            Self.add(value, currency, to: &valueInfluenced, outOfRange: &outOfRange)
            Self.add(value, currency, to: &conversionValue, outOfRange: &outOfRange)
        case .unattributedConversion: Self.add(value, currency, to: &valueUnattributed, outOfRange: &outOfRange)
        default: break
        }
    }

    private static func add(_ value: MoneyTotal, _ currency: String, to values: inout [String: MoneyTotal], outOfRange: inout String?) {
        if !values[currency, default: .zero].add(value), outOfRange == nil { outOfRange = "conversion_value" }
    }

    private static func merge(_ other: [String: MoneyTotal], into values: inout [String: MoneyTotal], outOfRange: inout String?) {
        for (currency, value) in other { add(value, currency, to: &values, outOfRange: &outOfRange) }
    }


    public mutating func add(_ other: Outcomes) {
        directOpens += other.directOpens
        influencedOpens += other.influencedOpens
        unattributedSessions += other.unattributedSessions
        conversionsDirect += other.conversionsDirect
        conversionsInfluenced += other.conversionsInfluenced
        conversionsUnattributed += other.conversionsUnattributed
        Self.merge(other.valueDirect, into: &valueDirect, outOfRange: &outOfRange)
        Self.merge(other.valueInfluenced, into: &valueInfluenced, outOfRange: &outOfRange)
        Self.merge(other.valueUnattributed, into: &valueUnattributed, outOfRange: &outOfRange)
        Self.merge(other.conversionValue, into: &conversionValue, outOfRange: &outOfRange)
        if outOfRange == nil { outOfRange = other.outOfRange }
    }
}
