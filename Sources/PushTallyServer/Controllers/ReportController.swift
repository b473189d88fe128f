import Foundation
import Hummingbird
import PushTallyCore

/// `GET /v1/reports/...`: sent vs displayed vs opened, from rollups only, read from a replica when one is
/// configured and current (``ReportReadRouter``); each answer says which (`PushTally-Read-Source`, `PushTally-Data-Lag`).
struct ReportController<Context: RequestContext>: Sendable {
    let reads: ReportReadRouter
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
                let answer = try await StoreDeadline.run(StoreDeadline.request) { [reads] in
                    try await reads.read { reader in try await reader.report(reportRequest) }
                }
                ServerMetrics.reportRead(from: answer.source)
                return try ReportResponse.make(
                    answer.value, name: report.name, query: query, request: request,
                    readFrom: (answer.source, answer.lagSeconds))
            } catch let notFound as ReportNotFound {
                throw APIError(.notFound, "not_found", notFound.description, field: notFound.field)
            }
        }
    }
}
