/// What the audience report reads of ``AudienceTable``: the grouping and the range, which
/// ``Queries/SelectAudienceCounts`` reads for both engines.
///
/// Per device and group it keeps the greatest-ranked row in the range (the rollup's own merge order), then
/// counts the kept rows by setting. The range is read to 15-minute buckets, as the other reports read theirs.
public struct AudienceQuery: Sendable, Hashable {
    public var grouping: AudienceGrouping?
    /// The first and last bucket read; `nil`: unbounded.
    public var fromBucket: Int64?
    public var toBucket: Int64?

    public init(grouping: AudienceGrouping?, fromMillis: Int64?, toMillis: Int64?) {
        self.grouping = grouping
        fromBucket = fromMillis.map(EventTime.bucket(ofMillis:))
        toBucket = toMillis.map { EventTime.bucket(ofMillis: $0 - 1) }
    }

    /// Quarter hours per UTC day: `by=day` groups on the bucket's day.
    static let bucketsPerDay = 86_400_000 / EventTime.bucketMillis
}

extension AudienceCount {
    /// A row of ``Queries/SelectAudienceCounts`` as counts: `counts` are the permission columns
    /// then unknown, each engine's decoded integers.
    package init(group: Group?, counts: [Int64]) {
        var devices: [NotificationPermission?: Int64] = [:]
        for (permission, count) in zip(NotificationPermission.allCases, counts) where count > 0 { devices[permission] = count }
        if let unknown = counts.dropFirst(NotificationPermission.allCases.count).first, unknown > 0 { devices[nil] = unknown }
        self.init(group: group, devices: devices)
    }
}
