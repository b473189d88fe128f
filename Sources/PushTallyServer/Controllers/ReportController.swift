import Foundation
import Hummingbird
import PushTallyCore

/// `GET /v1/reports/...`: sent vs displayed vs opened, from rollups only.
struct ReportController<Context: RequestContext>: Sendable {
    let store: any PushTallyStore
    let authorizer: Authorizer

    func register(on routes: RouteTable<Context>) {
        routes.on(.get, "/v1/reports/campaigns") { request, _ in
            try await respond(request, .campaigns)
        }
        routes.on(.get, "/v1/reports/campaigns/:campaign") { request, context in
            try await respond(request, .campaign(try pathParameter("campaign", context)))
        }
        routes.on(.get, "/v1/reports/pushes") { request, _ in
            let orphan = try request.uri.queryParameters["orphan"].map { value in
                guard let flag = Bool(String(value)) else {
                    throw APIError(.badRequest, "bad_value", "orphan must be true or false", field: "orphan")
                }
                return flag
            }
            return try await respond(request, .pushes(orphan: orphan))
        }
        routes.on(.get, "/v1/reports/pushes/:push_id") { request, context in
            try await respond(request, .push(try pathParameter("push_id", context)))
        }
        routes.on(.get, "/v1/reports/timeseries") { request, _ in
            let query = request.uri.queryParameters
            let width = try query["bucket"].map { value in
                guard let width = TimeseriesOptions.Width(rawValue: String(value)) else {
                    throw APIError(.badRequest, "bad_value", "bucket must be hour or day", field: "bucket")
                }
                return width
            } ?? .day
            let name = query["tz"].map(String.init) ?? "UTC"
            let zone = try TimeseriesOptions.zone(named: name)
            return try await respond(request, .timeseries(TimeseriesOptions(width: width, timeZone: zone, name: name)))
        }
        routes.on(.get, "/v1/reports/versions") { request, _ in
            let name = request.uri.queryParameters["dimension"].map(String.init) ?? "app_version"
            guard let dimension = VersionDimension(name: name) else {
                throw APIError(.badRequest, "bad_value", "dimension must be app_version or os_version", field: "dimension")
            }
            return try await respond(request, .versions(dimension))
        }
    }

    private func respond(_ request: Request, _ subject: ReportSubject) async throws -> Response {
        try await authorizer.require(.read, request)
        let report = ReportRequest(subject, filter: try Self.filter(request))
        do {
            return try ReportResponse.make(try await store.report(report), name: report.name, request: request)
        } catch let notFound as ReportNotFound {
            throw APIError(.notFound, "not_found", notFound.description, field: notFound.field)
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
