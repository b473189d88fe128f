/// The audience report's read of ``AudienceTable``, decided once for both engines: each renders it with its
/// own placeholders (``SQLDialect/audienceQuery(_:placeholder:)``) and only decodes the rows.
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

    /// The values the placeholders stand for, in order.
    package var bounds: [Int64] { [fromBucket, toBucket].compactMap { $0 } }

    /// Quarter hours per UTC day: `by=day` groups on the bucket's day.
    static let bucketsPerDay = 86_400_000 / EventTime.bucketMillis
}

extension SQLDialect {
    /// The statement reading `query`: rows of (group, devices, one count per ``NotificationPermission``, in
    /// its order, unknown). The group is a day number (integer) by day, the app or version text (`''` for
    /// none) by app or app version, and a bare 0 without one. `placeholder(n)` is the n-th bound's
    /// placeholder (from 1), for ``AudienceQuery/bounds``.
    package func audienceQuery(_ query: AudienceQuery, placeholder: (Int) -> String) -> String {
        let group: String?
        switch query.grouping {
        case .day: group = "bucket / \(AudienceQuery.bucketsPerDay)"
        case .app: group = "app"
        case .appVersion: group = "app_version"
        case nil: group = nil
        }
        var conditions: [String] = []
        if query.fromBucket != nil { conditions.append("bucket >= \(placeholder(conditions.count + 1))") }
        if query.toBucket != nil { conditions.append("bucket <= \(placeholder(conditions.count + 1))") }
        let range = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        // COALESCE: without a grouping the one row of an empty range sums nothing.
        let counts = NotificationPermission.allCases.map { permission in
            "COALESCE(SUM(CASE WHEN known = 1 AND permission = '\(permission.rawValue)' THEN 1 ELSE 0 END), 0)"
        } + ["COALESCE(SUM(CASE WHEN known = 0 THEN 1 ELSE 0 END), 0)"]
        // Days before 1970 cannot be stored (event times are clamped to their receipt), so the day's plain
        // integer division is its floor.
        return """
            SELECT \(group == nil ? "0" : "grp"), COUNT(*), \(counts.joined(separator: ", ")) FROM (
                SELECT \(group.map { "\($0) AS grp, " } ?? "")known, permission,
                    ROW_NUMBER() OVER (
                        PARTITION BY device_id\(group.map { ", \($0)" } ?? "")
                        ORDER BY known DESC, session_time DESC, permission DESC) AS position
                FROM \(AudienceTable.name) \(range)) latest
            WHERE position = 1\(group == nil ? "" : " GROUP BY grp")
            """
    }
}

extension AudienceCount {
    /// A row of ``SQLDialect/audienceQuery(_:placeholder:)`` as counts: `counts` are the permission columns
    /// then unknown, each engine's decoded integers.
    package init(group: Group?, counts: [Int64]) {
        var devices: [NotificationPermission?: Int64] = [:]
        for (permission, count) in zip(NotificationPermission.allCases, counts) where count > 0 { devices[permission] = count }
        if let unknown = counts.dropFirst(NotificationPermission.allCases.count).first, unknown > 0 { devices[nil] = unknown }
        self.init(group: group, devices: devices)
    }
}
