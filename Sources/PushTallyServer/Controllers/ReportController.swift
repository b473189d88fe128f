import Foundation
import Hummingbird
import PushTallyCore

/// `GET /v1/reports/...`: sent vs displayed vs opened, from rollups only.
struct ReportController<Context: RequestContext>: Sendable {
    let store: any ReportReader
    let authorizer: Authorizer

    func register(on routes: RouteTable<Context>) {
        report(.campaignsReport, on: routes) { _, _ in .campaigns }
        report(.campaignReport, on: routes) { _, context in .campaign(try pathParameter("campaign", context)) }
        report(.pushesReport, on: routes) { request, _ in
            let orphan = try request.uri.queryParameters["orphan"].map { value in
                guard let flag = Bool(String(value)) else {
                    throw APIError(.badRequest, "bad_value", "orphan must be true or false", field: "orphan")
                }
                return flag
            }
            return .pushes(orphan: orphan)
        }
        report(.pushReport, on: routes) { _, context in .push(try pathParameter("push_id", context)) }
        report(.timeseriesReport, on: routes) { request, _ in
            let query = request.uri.queryParameters
            let width = try query["bucket"].map { value in
                guard let width = TimeseriesOptions.Width(rawValue: String(value)) else {
                    throw APIError(.badRequest, "bad_value", "bucket must be hour or day", field: "bucket")
                }
                return width
            } ?? .day
            let name = query["tz"].map(String.init) ?? "UTC"
            let zone = try TimeseriesOptions.zone(named: name)
            return .timeseries(TimeseriesOptions(width: width, timeZone: zone, name: name))
        }
        report(.versionsReport, on: routes) { request, _ in
            let name = request.uri.queryParameters["dimension"].map(String.init) ?? "app_version"
            guard let dimension = VersionDimension(name: name) else {
                throw APIError(.badRequest, "bad_value", "dimension must be app_version or os_version", field: "dimension")
            }
            return .versions(dimension)
        }
    }

    /// Registers a report route: what to report comes from the request, and a bad parameter is answered before
    /// the token is checked; then a token of the route's role (`read`) is required.
    private func report(
        _ route: APIRoute, on routes: RouteTable<Context>,
        subject: @escaping @Sendable (Request, Context) throws -> ReportSubject
    ) {
        routes.on(route) { request, context in
            let subject = try subject(request, context)
            if let role = route.role { try await authorizer.require(role, request) }
            let report = ReportRequest(subject, filter: try Self.filter(request))
            do {
                return try ReportResponse.make(try await store.report(report), name: report.name, request: request)
            } catch let notFound as ReportNotFound {
                throw APIError(.notFound, "not_found", notFound.description, field: notFound.field)
            }
        }
    }

    /// `from`, `to` (ISO 8601 or unix seconds), `campaign`, `push_id`, `app` and `environment` from the query.
    static func filter(_ request: Request) throws -> ReportFilter {
        let query = request.uri.queryParameters
        func time(_ name: String) throws -> Int64? {
            guard let value = query[name[...]], !value.isEmpty else { return nil }
            return try Timestamp.millis(from: .string(String(value)), field: name)
        }
        func text(_ name: String) -> String? {
            query[name[...]].flatMap { $0.isEmpty ? nil : String($0) }
        }
        return ReportFilter(
            fromMillis: try time("from"), toMillis: try time("to"), campaign: text("campaign"), pushID: text("push_id"),
            app: text("app"), environment: text("environment"))
    }
}
