/// What the audience report splits its devices by (`by=`): a row per UTC day, per app or per app version.
public enum AudienceGrouping: String, Sendable, Hashable, CaseIterable {
    case day
    case app
    case appVersion = "app_version"
}

/// A group's devices by their latest notification setting in the range.
public struct AudienceCount: Sendable, Hashable {
    /// The group's key: `nil` without a grouping; a day number since 1970 (UTC) by day; the app or version
    /// (`""` when sessions named none) by app or app version.
    public enum Group: Sendable, Hashable {
        case day(Int64)
        case text(String)
    }

    public var group: Group?
    /// Devices by setting; a device whose sessions in the range reported none counts under `nil`.
    public var devices: [NotificationPermission?: Int64]

    public init(group: Group?, devices: [NotificationPermission?: Int64]) {
        self.group = group
        self.devices = devices
    }

    public var total: Int64 { devices.values.reduce(0, +) }

    /// (authorized + provisional + ephemeral) / the devices whose setting is known; `nil` when none is.
    public var optInRate: Double? {
        var known: Int64 = 0
        var canShow: Int64 = 0
        for (permission, count) in devices {
            guard let permission else { continue }
            known += count
            if permission.canShow { canShow += count }
        }
        return known == 0 ? nil : Double(canShow) / Double(known)
    }
}

/// `GET /v1/reports/audience`: devices with a session in the range, by their latest notification setting in
/// it, with the opt-in rate. A device counts once per row, under the latest setting it reported in that
/// row's group; a session that reported none does not hide an earlier one that did (older app builds and
/// clients that cannot read the setting send none), so `unknown` counts devices that never said.
public enum AudienceReport {
    public static func table(_ counts: [AudienceCount], grouping: AudienceGrouping?) -> ReportTable {
        // Without a grouping, one row even when no device had a session.
        let rows = grouping == nil
            ? [counts.first ?? AudienceCount(group: nil, devices: [:])] : counts.sorted { precedes($0.group, $1.group) }
        return ReportTable(
            name: "audience", rows: rows.map { columns($0, grouping: grouping) },
            template: columns(AudienceCount(group: grouping.map(emptyGroup), devices: [:]), grouping: grouping))
    }

    private static func emptyGroup(_ grouping: AudienceGrouping) -> AudienceCount.Group {
        grouping == .day ? .day(0) : .text("")
    }

    private static func columns(_ count: AudienceCount, grouping: AudienceGrouping?) -> [(String, ReportValue)] {
        var row: [(String, ReportValue)] = []
        if let grouping {
            switch count.group {
            case .day(let day)?: row.append((grouping.rawValue, .text(String(Timestamp.iso8601(millis: day * 86_400_000).prefix(10)))))
            case .text(let text)?: row.append((grouping.rawValue, .text(text.isEmpty ? nil : text)))
            case nil: row.append((grouping.rawValue, .text(nil)))
            }
        }
        row.append(("devices", .integer(count.total)))
        for permission in NotificationPermission.allCases {
            row.append((permission.rawValue, .integer(count.devices[permission] ?? 0)))
        }
        row.append(("unknown", .integer(count.devices[nil] ?? 0)))
        row.append(("opt_in_rate", .rate(count.optInRate)))
        return row
    }

    /// Days in order; apps and versions by name (bytes), those sessions named none last.
    private static func precedes(_ a: AudienceCount.Group?, _ b: AudienceCount.Group?) -> Bool {
        switch (a, b) {
        case (.day(let x)?, .day(let y)?): return x < y
        case (.text(let x)?, .text(let y)?):
            if x.isEmpty != y.isEmpty { return !x.isEmpty }
            return x.utf8.lexicographicallyPrecedes(y.utf8)
        default: return false
        }
    }
}
