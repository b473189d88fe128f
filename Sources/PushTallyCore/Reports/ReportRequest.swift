import Foundation

/// Which report, with its own options: the same value drives the HTTP route, the CLI's local run and the
/// CLI's `--server` run, so all three give identical numbers. Each kind adds its constructor
/// (`.campaigns`, `.push(id)`...) in its own file.
public struct ReportSubject: Sendable, Hashable {
    /// The report and its options.
    public let kind: any ReportKind

    public init(_ kind: any ReportKind) {
        self.kind = kind
    }

    /// The report's kind as routes and the CLI know it.
    public var declaration: ReportDeclaration { type(of: kind).declaration }

    public static func == (lhs: ReportSubject, rhs: ReportSubject) -> Bool {
        AnyHashable(lhs.kind) == AnyHashable(rhs.kind)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(AnyHashable(kind))
    }
}

/// A report and the filter it applies; the report's own options are its kind's (``ReportSubject/kind``).
public struct ReportRequest: Sendable, Hashable {
    public var subject: ReportSubject
    public var filter: ReportFilter

    public init(_ subject: ReportSubject, filter: ReportFilter = ReportFilter()) {
        self.subject = subject
        self.filter = filter
    }

    /// The report route this request is for, whose parameters ``ReportQuery`` reads.
    public var report: ReportDeclaration { subject.declaration }

    /// A short name for download file names (`pushtally-campaigns-2026-11-22.csv`).
    public var name: String { report.name }

    /// The table this report renders when there is nothing to report (``ReportKind/emptyTable(_:)``).
    public func emptyTable() throws -> ReportTable {
        try subject.kind.emptyTable(self)
    }

    /// The API path and query that ask a server for this report: the path parameter in the route's path, the
    /// filter's values the report takes, then the report's own options.
    public func httpPath() -> (path: String, query: [URLQueryItem]) {
        let declaration = report
        var path = declaration.path
        if let parameter = declaration.pathParameter {
            let value = subject.kind.pathValue ?? ""
            let segment = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
            path = path.replacingOccurrences(of: ":\(parameter)", with: segment)
        }
        let filterValues: [(String, String?)] = [
            ("from", filter.fromMillis.map(Timestamp.iso8601(millis:))),
            ("to", filter.toMillis.map(Timestamp.iso8601(millis:))),
            ("app", filter.app),
            ("environment", filter.environment),
            ("campaign", filter.campaign),
            ("push_id", filter.pushID),
            ("platform", filter.platform),
        ]
        var query: [URLQueryItem] = []
        for (name, value) in filterValues where declaration.takes(name) {
            if let value { query.append(URLQueryItem(name: name, value: value)) }
        }
        query += subject.kind.ownQuery(self).map { URLQueryItem(name: $0.name, value: $0.value) }
        return (path, query)
    }
}

/// A report's subject does not exist.
public struct ReportNotFound: Error, Sendable, CustomStringConvertible {
    public var description: String
    public var field: String
}

extension ReportReader {
    /// Runs a report against the rollups (``ReportKind/table(_:from:maturity:)``).
    /// - Throws: ``ReportNotFound`` for an unknown campaign or push; ``FieldError`` for a bad range or an unknown
    ///   control variant.
    public func report(_ request: ReportRequest) async throws -> ReportTable {
        let maturity = Maturity(nowMillis: configuration.clock(), windowMillis: configuration.maturityWindowMillis)
        return try await request.subject.kind.table(request, from: self, maturity: maturity)
    }

    /// Refuses a campaign in which no push is registered: a report of a campaign whose filter leaves no pushes
    /// asks, so that "none match" (no rows) is told from "no such campaign" (``ReportNotFound``).
    package func requireRegistered(campaign: String) async throws {
        if try await pushFigures(ReportFilter(campaign: campaign)).isEmpty {
            throw ReportNotFound(description: "no push is registered in campaign \(campaign)", field: "campaign")
        }
    }
}
