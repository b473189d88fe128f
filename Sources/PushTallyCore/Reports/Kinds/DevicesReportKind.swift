/// `GET /v1/reports/devices`: per app and platform, the devices the backend sent pushes to in the last `days`
/// (at least `min_sends` each), each in one ``DarkState``: which devices never show pushes, and why.
public struct DevicesReportKind: ReportKind {
    public static let declaration = ReportDeclaration(
        name: "devices", path: "/v1/reports/devices", parameters: ["days", "min_sends", "app", "platform", "format", "bom"],
        summary: "Devices sent pushes, per app and platform, by whether they show them: rejected, unknown, gone, muted, ignoring, engaged.",
        kind: Self.self)

    public var query: DeviceStateQuery

    public init(query: DeviceStateQuery) {
        self.query = query
    }

    public init(_ query: ReportQuery, pathValue: String?) throws(FieldError) {
        self.query = DeviceStateQuery(
            days: try Self.whole(query.option("days"), "days", in: 1...DeviceStateQuery.maximumDays) ?? DeviceStateQuery.defaultDays,
            minSends: try Self.whole(query.option("min_sends"), "min_sends", in: 1...1000) ?? 1,
            app: query.filter.app, platform: query.filter.platform)
    }

    /// A whole number in `range`, refused with the range otherwise.
    public static func whole(_ text: String?, _ name: String, in range: ClosedRange<Int>) throws(FieldError) -> Int? {
        guard let text else { return nil }
        guard text.utf8.count <= 7, text.utf8.allSatisfy({ (48...57).contains($0) }), let value = Int(text), range.contains(value) else {
            throw FieldError("bad_value", "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)", field: name)
        }
        return value
    }

    public func ownQuery(_ request: ReportRequest) -> [(name: String, value: String)] {
        [("days", String(query.days)), ("min_sends", String(query.minSends))]
    }

    public func emptyTable(_ request: ReportRequest) -> ReportTable {
        DevicesReport.table([], query: query)
    }

    public func table(_ request: ReportRequest, from reader: some ReportReader, maturity: Maturity) async throws -> ReportTable {
        var query = query
        query.app = request.filter.app
        query.platform = request.filter.platform
        return DevicesReport.table(try await reader.deviceStateCounts(query), query: query)
    }
}

extension ReportSubject {
    /// Devices sent pushes by whether they show them.
    public static func devices(_ query: DeviceStateQuery = DeviceStateQuery()) -> ReportSubject {
        ReportSubject(DevicesReportKind(query: query))
    }
}

extension ReportDeclaration {
    public static var devices: ReportDeclaration { DevicesReportKind.declaration }
}
