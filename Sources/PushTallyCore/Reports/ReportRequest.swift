import Foundation

/// Which report: the same value drives the HTTP route, the CLI's local run and the CLI's `--server` run,
/// so all three give identical numbers.
public enum ReportSubject: Sendable, Hashable {
    /// One row per campaign (plus the orphan row).
    case campaigns
    /// One row per push of a campaign (drill-down).
    case campaign(String)
    /// One row per push; `orphan` keeps only unregistered (true) or registered (false) pushes.
    case pushes(orphan: Bool?)
    /// One push.
    case push(String)
    /// Counts per local hour or day.
    case timeseries(TimeseriesOptions)
    /// Receipt health: receipts against opens per app or OS version.
    case versions(VersionDimension)
    /// Sessions and conversions by credit, unattributed included, by their event time (`from`, `to`).
    case attribution
    /// One row per A/B variant of a campaign, compared with `control` (`nil`: the default control).
    case variants(String, control: String?)
}

/// A report and the filter it applies.
public struct ReportRequest: Sendable, Hashable {
    public var subject: ReportSubject
    public var filter: ReportFilter
    /// Campaigns only: a row per campaign and value of this send attribute (`by=`).
    public var by: ReportGrouping?

    public init(_ subject: ReportSubject, filter: ReportFilter = ReportFilter(), by: ReportGrouping? = nil) {
        self.subject = subject
        self.filter = filter
        self.by = by
    }

    /// The report route this request is for, whose parameters ``ReportQuery`` reads.
    public var report: ReportQuery.Report {
        switch subject {
        case .campaigns: .campaigns
        case .campaign: .campaign
        case .pushes: .pushes
        case .push: .push
        case .timeseries: .timeseries
        case .versions: .versions
        case .attribution: .attribution
        case .variants: .variants
        }
    }

    /// A short name for download file names (`pushtally-campaigns-2026-11-22.csv`).
    public var name: String {
        switch subject {
        case .campaigns: "campaigns"
        case .campaign: "campaign"
        case .pushes: "pushes"
        case .push: "push"
        case .timeseries: "timeseries"
        case .versions: "versions"
        case .attribution: "attribution"
        case .variants: "variants"
        }
    }

    /// The API path and query that ask a server for this report.
    public func httpPath() -> (path: String, query: [URLQueryItem]) {
        func segment(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
        }
        var query: [URLQueryItem] = []
        func add(_ name: String, _ value: String?) {
            if let value { query.append(URLQueryItem(name: name, value: value)) }
        }
        add("from", filter.fromMillis.map(Timestamp.iso8601(millis:)))
        add("to", filter.toMillis.map(Timestamp.iso8601(millis:)))
        add("app", filter.app)
        add("environment", filter.environment)
        let path: String
        switch subject {
        case .campaigns:
            add("campaign", filter.campaign)
            add("by", by?.rawValue)
            path = "/v1/reports/campaigns"
        case .campaign(let name):
            path = "/v1/reports/campaigns/\(segment(name))"
        case .pushes(let orphan):
            add("campaign", filter.campaign)
            add("orphan", orphan.map { String($0) })
            path = "/v1/reports/pushes"
        case .push(let id):
            path = "/v1/reports/pushes/\(segment(id))"
        case .timeseries(let options):
            add("campaign", filter.campaign)
            add("push_id", filter.pushID)
            add("bucket", options.width.rawValue)
            add("tz", options.timeZoneName)
            path = "/v1/reports/timeseries"
        case .versions(let dimension):
            add("campaign", filter.campaign)
            add("push_id", filter.pushID)
            add("dimension", dimension.name)
            path = "/v1/reports/versions"
        case .attribution:
            path = "/v1/reports/attribution"
        case .variants(let name, let control):
            add("control", control)
            path = "/v1/reports/campaigns/\(segment(name))/variants"
        }
        return (path, query)
    }
}

/// A report's subject does not exist.
public struct ReportNotFound: Error, Sendable, CustomStringConvertible {
    public var description: String
    public var field: String
}

extension ReportReader {
    /// Runs a report against the rollups.
    /// - Throws: ``ReportNotFound`` for an unknown campaign or push; ``FieldError`` for a bad range or an unknown
    ///   control variant.
    public func report(_ request: ReportRequest) async throws -> ReportTable {
        let maturity = Maturity(nowMillis: configuration.clock(), windowMillis: configuration.maturityWindowMillis)
        var filter = request.filter
        switch request.subject {
        case .campaigns:
            let rows = try await campaignRows(filter, by: request.by)
            return CampaignReport.table(rows, maturity: maturity, by: request.by)
        case .campaign(let name):
            filter.campaign = name
            let pushes = try await supersededPushFigures(filter)
            if pushes.isEmpty, try await pushFigures(ReportFilter(campaign: name)).isEmpty {
                throw ReportNotFound(description: "no push is registered in campaign \(name)", field: "campaign")
            }
            return PushReport.table(pushes, maturity: maturity)
        case .pushes(let orphan):
            let pushes = try await supersededPushFigures(filter).filter { orphan == nil || $0.isOrphan == orphan }
            return PushReport.table(pushes, maturity: maturity)
        case .push(let id):
            let pushes = try await supersededPushFigures(ReportFilter(pushID: id))
            guard !pushes.isEmpty else {
                throw ReportNotFound(description: "no push \(id) is registered and no receipt names it", field: "push_id")
            }
            return PushReport.table(pushes, maturity: maturity)
        case .timeseries(let options):
            return try TimeseriesReport.table(
                try await bucketCounts(filter), options: options, fromMillis: filter.fromMillis, toMillis: filter.toMillis)
        case .versions(let dimension):
            return ReceiptHealthReport.table(try await versionCounts(filter, dimension: dimension), dimension: dimension)
        case .attribution:
            return AttributionReport.table(try await outcomeTotals(fromMillis: filter.fromMillis, toMillis: filter.toMillis))
        case .variants(let name, let requested):
            filter.campaign = name
            let pushes = try await pushFigures(filter)
            if pushes.isEmpty, try await pushFigures(ReportFilter(campaign: name)).isEmpty {
                throw ReportNotFound(description: "no push is registered in campaign \(name)", field: "campaign")
            }
            let (rows, withoutVariant) = VariantReport.rows(pushes)
            let control = try VariantReport.control(requested, among: rows)
            return VariantReport.table(campaign: name, rows: rows, control: control, withoutVariant: withoutVariant)
        }
    }
}
