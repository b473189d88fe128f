import Foundation
import Hummingbird
import PushTallyCore

/// `GET /v1/reports/...`: sent vs displayed vs opened, from rollups only.
struct ReportController<Context: RequestContext>: Sendable {
    let store: any ReportReader
    let authorizer: Authorizer

    func register(on routes: RouteTable<Context>) {
        for report in ReportKinds.all { self.report(report, on: routes) }
    }

    /// Registers a report route. Its query is read strictly (``ReportQuery``) and a bad parameter is answered
    /// before the token is checked; then a token of the route's role (`read`) is required.
    private func report(_ report: ReportDeclaration, on routes: RouteTable<Context>) {
        let route = APIRoute.report(report)
        routes.on(route) { request, context in
            let query = try ReportQuery(request.uri.query.map { $0[...] }, report: report)
            let pathValue = try report.pathParameter.map { try pathParameter($0, context) }
            let reportRequest = try query.request(report, pathValue: pathValue)
            if let role = route.role { try await authorizer.require(role, request) }
            do {
                return try ReportResponse.make(try await store.report(reportRequest), name: report.name, query: query, request: request)
            } catch let notFound as ReportNotFound {
                throw APIError(.notFound, "not_found", notFound.description, field: notFound.field)
            }
        }
    }
}
