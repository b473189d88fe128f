import Foundation
import Hummingbird
import PushTallyCore

/// `GET /v1/reports/...`: sent vs displayed vs opened, from rollups only, read from a replica when one is
/// configured and current (``ReportReadRouter``); each answer says which (`PushTally-Read-Source`, `PushTally-Data-Lag`).
struct ReportController<Context: RequestContext>: Sendable {
    let reads: ReportReadRouter
    let authorizer: Authorizer
    /// How long its store work may take (``ServerConfiguration/storeDeadlines``).
    var deadlines = StoreDeadlines()

    func register(on routes: RouteTable<Context>) {
        for report in ReportKinds.all {
            self.report(report, at: .report(report), on: routes) { request, context in
                let query = try ReportQuery(request.uri.query.map { $0[...] }, report: report)
                return (query, try report.pathParameter.map { try pathParameter($0, context) })
            }
            guard let parameter = report.pathParameter, report.queryAddressedPath != nil else { continue }
            self.report(report, at: .reportByQuery(report), on: routes) { request, _ in
                var pairs = try FormBody.pairs(request.uri.query.map { $0[...] } ?? "")
                let value = try Self.take(parameter, from: &pairs)
                return (try ReportQuery(pairs: pairs, report: report), value)
            }
        }
    }

    /// Registers a report route. Its query is read strictly (``ReportQuery``) and a bad parameter is answered
    /// before the token is checked; then a token of the route's role (`read`) is required.
    /// - Parameter read: the request's query and the value of the report's path parameter.
    private func report(
        _ report: ReportDeclaration, at route: APIRoute, on routes: RouteTable<Context>,
        read: @escaping @Sendable (Request, Context) throws -> (ReportQuery, String?)
    ) {
        routes.on(route) { request, context in
            let (query, pathValue) = try read(request, context)
            let reportRequest = try query.request(report, pathValue: pathValue)
            if let role = route.role { try await authorizer.require(role, request) }
            do {
                if let pages = reportRequest.subject.kind.pages(reportRequest) {
                    return try await PagedReportResponse(
                        pages: pages, name: report.name, query: query, reads: reads, deadline: deadlines.request, logger: context.logger
                    ).make(for: request)
                }
                let answer = try await StoreDeadline.run(deadlines.request) { [reads] in
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

    /// Removes the one pair named `parameter` from `pairs` and returns its value: the path parameter of a report
    /// asked for at its query-addressed route, required there as the path requires it.
    static func take(_ parameter: String, from pairs: inout [(name: String, value: String)]) throws(FieldError) -> String {
        let named = pairs.filter { $0.name == parameter }
        guard named.count < 2 else {
            throw FieldError("repeated_parameter", "\(parameter) is given more than once; give it once", field: parameter)
        }
        guard let value = named.first?.value, !value.isEmpty else { throw FieldError.missing(parameter) }
        pairs.removeAll { $0.name == parameter }
        return value
    }
}
