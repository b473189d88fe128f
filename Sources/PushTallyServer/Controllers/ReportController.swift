import Hummingbird
import PushTallyCore

/// `GET /v1/reports/...`: sent vs displayed vs opened, from rollups only.
struct ReportController<Context: RequestContext>: Sendable {
    let store: any PushTallyStore
    let authorizer: Authorizer

    func register(on routes: RouteTable<Context>) {
        routes.on(.get, "/v1/reports/campaigns") { request, _ in
            try await authorizer.require(.read, request)
            let pushes = try await store.pushFigures(try Self.filter(request))
            return try ReportResponse.make(CampaignReport.table(CampaignReport.rows(pushes)), name: "campaigns", request: request)
        }
        routes.on(.get, "/v1/reports/campaigns/:campaign") { request, context in
            try await authorizer.require(.read, request)
            let campaign = try pathParameter("campaign", context)
            var filter = try Self.filter(request)
            filter.campaign = campaign
            let pushes = try await store.pushFigures(filter)
            if pushes.isEmpty, try await store.pushFigures(ReportFilter(campaign: campaign)).isEmpty {
                throw APIError(.notFound, "not_found", "no push is registered in campaign \(campaign)", field: "campaign")
            }
            return try ReportResponse.make(PushReport.table(pushes), name: "campaign", request: request)
        }
        routes.on(.get, "/v1/reports/pushes") { request, _ in
            try await authorizer.require(.read, request)
            var pushes = try await store.pushFigures(try Self.filter(request))
            if let orphan = request.uri.queryParameters["orphan"] {
                guard let wanted = Bool(String(orphan)) else {
                    throw APIError(.badRequest, "bad_value", "orphan must be true or false", field: "orphan")
                }
                pushes = pushes.filter { $0.isOrphan == wanted }
            }
            return try ReportResponse.make(PushReport.table(pushes), name: "pushes", request: request)
        }
        routes.on(.get, "/v1/reports/pushes/:push_id") { request, context in
            try await authorizer.require(.read, request)
            let pushID = try pathParameter("push_id", context)
            let pushes = try await store.pushFigures(ReportFilter(pushID: pushID))
            guard !pushes.isEmpty else {
                throw APIError(.notFound, "not_found", "no push \(pushID) is registered and no receipt names it", field: "push_id")
            }
            return try ReportResponse.make(PushReport.table(pushes), name: "push", request: request)
        }
    }

    /// `from`, `to` (ISO 8601 or unix seconds), `campaign`, `app` and `environment` from the query.
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
            fromMillis: try time("from"), toMillis: try time("to"), campaign: text("campaign"), app: text("app"),
            environment: text("environment"))
    }
}
