/// `GET /v1/reports/timeseries`: counts per local hour or day, by event time.
public struct TimeseriesReportKind: ReportKind {
    public static let declaration = ReportDeclaration(
        name: "timeseries", path: "/v1/reports/timeseries",
        parameters: ReportDeclaration.commonParameters + ["campaign", "push_id", "platform", "bucket", "tz"],
        summary: "Displays, opens and actions per local hour or day.", kind: Self.self)

    public var options: TimeseriesOptions

    public init(options: TimeseriesOptions) {
        self.options = options
    }

    public init(_ query: ReportQuery, pathValue: String?) throws(FieldError) {
        options = TimeseriesOptions(
            width: try query.option("bucket", as: TimeseriesOptions.Width.self) ?? .day,
            timeZone: try TimeseriesOptions.zone(named: query.timeZone), name: query.timeZone)
    }

    public func ownQuery(_ request: ReportRequest) -> [(name: String, value: String)] {
        [("bucket", options.width.rawValue), ("tz", options.timeZoneName)]
    }

    public func emptyTable(_ request: ReportRequest) throws -> ReportTable {
        try TimeseriesReport.table([], options: options, fromMillis: nil, toMillis: nil)
    }

    public func table(_ request: ReportRequest, from reader: some ReportReader, maturity: Maturity) async throws -> ReportTable {
        let filter = request.filter
        return try TimeseriesReport.table(
            try await reader.bucketCounts(filter), options: options, fromMillis: filter.fromMillis, toMillis: filter.toMillis)
    }
}

extension ReportSubject {
    /// Counts per local hour or day.
    public static func timeseries(_ options: TimeseriesOptions) -> ReportSubject {
        ReportSubject(TimeseriesReportKind(options: options))
    }
}

extension ReportDeclaration {
    public static var timeseries: ReportDeclaration { TimeseriesReportKind.declaration }
}
