/// What the devices report counts (``DevicesReport``): devices sent at least `minSends` pushes in the `days`
/// before now, judged by what happened in those days.
public struct DeviceStateQuery: Sendable, Hashable {
    /// The longest window: sends are kept this long (``DeviceSends/keptDays``).
    public static let maximumDays = DeviceSends.keptDays
    public static let defaultDays = 30

    public var days: Int
    public var minSends: Int
    public var app: String?
    public var platform: String?

    public init(days: Int = defaultDays, minSends: Int = 1, app: String? = nil, platform: String? = nil) {
        self.days = days
        self.minSends = minSends
        self.app = app
        self.platform = platform
    }

    /// The window's start for a report made at `nowMillis`.
    public func sinceMillis(nowMillis: Int64) -> Int64 { nowMillis - Int64(days) * 86_400_000 }
}

/// One app and platform's devices sent to in the window, each in exactly one ``DarkState``.
public struct DeviceStateCount: Sendable, Hashable {
    public var app: String
    public var platform: String
    public var devices: [DarkState: Int64]
    /// Of the muted, those whose latest session said notifications are off (`denied`).
    public var mutedDenied: Int64

    public init(app: String, platform: String, devices: [DarkState: Int64] = [:], mutedDenied: Int64 = 0) {
        self.app = app
        self.platform = platform
        self.devices = devices
        self.mutedDenied = mutedDenied
    }

    /// Devices with at least the query's sends in the window: the states add up to it.
    public var sentTo: Int64 { devices.values.reduce(0, +) }
    public var dark: Int64 { DarkState.allCases.filter(\.isDark).reduce(0) { $0 + (devices[$1] ?? 0) } }
}

/// Counts stored device states into ``DeviceStateCount`` rows, one state at a time (a store streams its rows in).
package struct DeviceStateTally: Sendable {
    private let query: DeviceStateQuery
    private let sinceMillis: Int64
    private var rows: [String: DeviceStateCount] = [:]

    package init(_ query: DeviceStateQuery, nowMillis: Int64) {
        self.query = query
        sinceMillis = query.sinceMillis(nowMillis: nowMillis)
    }

    /// The window's start: a store reads only devices sent to since then.
    package var sentSince: Int64 { sinceMillis }

    package mutating func add(_ device: DeviceState) {
        guard device.sends.count(sinceMillis: sinceMillis) >= query.minSends else { return }
        if let app = query.app, device.app != app { return }
        if let platform = query.platform, device.platform != platform { return }
        let state = device.state(sinceMillis: sinceMillis)
        let key = device.app + "\u{0}" + device.platform
        var row = rows[key] ?? DeviceStateCount(app: device.app, platform: device.platform)
        row.devices[state, default: 0] += 1
        if state == .muted, device.permission == NotificationPermission.denied.rawValue { row.mutedDenied += 1 }
        rows[key] = row
    }

    /// The rows by app, then platform (bytes).
    package var counts: [DeviceStateCount] {
        rows.values.sorted { ($0.app.utf8.lexicographicallyPrecedes($1.app.utf8)) || ($0.app == $1.app && $0.platform.utf8.lexicographicallyPrecedes($1.platform.utf8)) }
    }
}

/// `GET /v1/reports/devices`: per app and platform, the devices sent to and which of them show pushes.
public enum DevicesReport {
    public static func table(_ counts: [DeviceStateCount], query: DeviceStateQuery) -> ReportTable {
        ReportTable(
            name: "devices", rows: counts.map(columns), template: columns(DeviceStateCount(app: "", platform: "")),
            header: [("days", .integer(Int64(query.days))), ("min_sends", .integer(Int64(query.minSends)))])
    }

    private static func columns(_ count: DeviceStateCount) -> [(String, ReportValue)] {
        var row: [(String, ReportValue)] = [
            ("app", .text(count.app.isEmpty ? nil : count.app)), ("platform", .text(count.platform)), ("sent_to", .integer(count.sentTo)),
        ]
        for state in DarkState.allCases { row.append((state.rawValue, .integer(count.devices[state] ?? 0))) }
        row.append(("muted_notifications_off", .integer(count.mutedDenied)))
        row.append(("dark", .integer(count.dark)))
        row.append(("dark_rate", .rate(count.sentTo == 0 ? nil : Double(count.dark) / Double(count.sentTo))))
        return row
    }
}
