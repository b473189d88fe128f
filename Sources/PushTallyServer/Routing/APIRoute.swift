import HTTPTypes
import PushTallyCore

/// Every route the server answers, declared once with its method, path and the role a token needs.
///
/// The router registers these (``RouteTable``), the ingest fast path matches requests against them, the
/// dashboard's page calls the report routes, and the tests hold the OpenAPI document and the dashboard's
/// JavaScript to them: a route added or renamed here is added or renamed everywhere.
enum APIRoute: CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case receipts
    case actions
    case sessions
    case conversions
    case registerPush
    case registerPushes
    case recordSends
    /// Per-device deliveries of a push, as NDJSON or a JSON array (``DeliveryController``).
    case recordDeliveries
    /// FCM's BigQuery export of message events (delivery data), as NDJSON.
    case fcmDelivery
    /// A report route, one per ``ReportKinds/all``: its path and parameters are the report's declaration.
    case report(ReportDeclaration)
    /// The same report at its ``ReportDeclaration/queryAddressedPath``, its path parameter given in the query.
    case reportByQuery(ReportDeclaration)
    case health
    case metrics
    case dashboard
    case dashboardFile
    case createWebhook
    case listWebhooks
    case deleteWebhook
    case webhookDeliveries
    case replayWebhook
    case createAlert
    case listAlerts
    case deleteAlert
    case alertHistory
    case deviceTimeline
    /// The states of the install ids the backend asks about (``DeviceStatesController``).
    case deviceStates
    /// Stored events in commit order, for a warehouse (``EventFeedController``).
    case eventFeed

    var method: HTTPRequest.Method {
        switch self {
        case .receipts, .actions, .sessions, .conversions, .registerPushes, .recordSends, .recordDeliveries, .fcmDelivery, .createWebhook,
            .replayWebhook, .createAlert, .deviceStates: .post
        case .registerPush: .put
        case .deleteWebhook, .deleteAlert: .delete
        case .listWebhooks, .webhookDeliveries, .listAlerts, .alertHistory, .deviceTimeline, .eventFeed: .get
        case .report, .reportByQuery, .health, .metrics, .dashboard, .dashboardFile: .get
        }
    }

    /// The path as the router takes it, path parameters as `:name`.
    var path: String {
        switch self {
        case .receipts: "/v1/receipts"
        case .actions: "/v1/actions"
        case .sessions: "/v1/sessions"
        case .conversions: "/v1/conversions"
        case .registerPush: "/v1/pushes/:push_id"
        case .registerPushes: "/v1/pushes"
        case .recordSends: "/v1/pushes/:push_id/sends"
        case .recordDeliveries: "/v1/pushes/:push_id/deliveries"
        case .fcmDelivery: "/v1/delivery/fcm"
        case .report(let report): report.path
        case .reportByQuery(let report): report.queryAddressedPath ?? report.path
        case .health: "/healthz"
        case .metrics: "/metrics"
        // Hummingbird matches `/dashboard` and `/dashboard/` alike; the page links its files absolutely.
        case .dashboard: "/dashboard"
        case .dashboardFile: "/dashboard/:file"
        case .createWebhook, .listWebhooks: "/v1/webhooks"
        case .deleteWebhook: "/v1/webhooks/:id"
        case .webhookDeliveries: "/v1/webhooks/:id/deliveries"
        case .replayWebhook: "/v1/webhooks/:id/replay"
        case .createAlert, .listAlerts: "/v1/alerts"
        case .deleteAlert: "/v1/alerts/:id"
        case .alertHistory: "/v1/alerts/:id/history"
        case .deviceTimeline: "/v1/devices/:device_id/timeline"
        case .deviceStates: "/v1/devices/states"
        case .eventFeed: "/v1/events"
        }
    }

    /// The role a token must grant; `nil` for routes anyone may call (extensions cannot keep a secret, probes
    /// and scrapers carry none, and the dashboard's files hold no data).
    ///
    /// The ingest routes name `ingest`, which is asked for only when the server requires ingest keys.
    var role: Role? {
        switch self {
        case .receipts, .actions, .sessions, .conversions: .ingest
        case .registerPush, .registerPushes, .recordSends, .recordDeliveries, .fcmDelivery, .deviceStates: .backend
        case .report, .reportByQuery: .read
        case .health, .metrics, .dashboard, .dashboardFile: nil
        // Webhook URLs and deliveries are operators' business; alerts are read with reports (the dashboard
        // shows the firing ones) but only an admin defines them.
        case .createWebhook, .listWebhooks, .deleteWebhook, .webhookDeliveries, .replayWebhook, .createAlert, .deleteAlert: .admin
        case .listAlerts, .alertHistory: .read
        // One person's activity, for support: operators only.
        case .deviceTimeline: .admin
        case .eventFeed: .export
        }
    }

    /// Every route: the fixed ones, with a report route per declared report where the reports stand.
    static let allCases: [APIRoute] = [
        .receipts, .actions, .sessions, .conversions, .registerPush, .registerPushes, .recordSends, .recordDeliveries, .fcmDelivery,
    ]
        + ReportKinds.all.map(APIRoute.report)
        + ReportKinds.all.filter { $0.queryAddressedPath != nil }.map(APIRoute.reportByQuery)
        + [
            .health, .metrics, .dashboard, .dashboardFile, .createWebhook, .listWebhooks, .deleteWebhook, .webhookDeliveries,
            .replayWebhook, .createAlert, .listAlerts, .deleteAlert, .alertHistory, .deviceTimeline, .deviceStates, .eventFeed,
        ]

    /// The events an ingest route takes; `nil` for every other route.
    var eventKind: EventKind? {
        switch self {
        case .receipts: .display
        case .actions: .action
        case .sessions: .session
        case .conversions: .conversion
        default: nil
        }
    }

    /// The roles whose tokens this route takes (``role`` plus what else is accepted): sessions and conversions
    /// also take a backend token, as conversions often come from servers.
    var acceptedRoles: [Role] {
        switch self {
        case .sessions, .conversions: [.ingest, .backend]
        default: role.map { [$0] } ?? []
        }
    }

    /// Whether refusals on this route count in `pushtally_events_rejected_total`: the routes that take events,
    /// sends and deliveries (not the backend's questions about device states), so a browser's favicon 404 or a
    /// report with a bad time zone does not look like lost data.
    var countsRejectedEvents: Bool {
        eventKind != nil || (role == .backend && self != .deviceStates)
    }

    /// Whether logs name this route by its template rather than the requested path: its path parameter is
    /// personal data (a raw device id), which must never reach a log.
    var logsTemplate: Bool { self == .deviceTimeline }

    /// What a log line names a request to this route by: the path as requested (without its query), or the
    /// route's template when the path carries personal data.
    func loggedPath(_ requested: String) -> String {
        logsTemplate ? path : requested
    }

    /// `POST /v1/receipts`.
    var description: String { "\(method.rawValue) \(path)" }

    /// The route that takes events of `kind`.
    static func ingest(_ kind: EventKind) -> APIRoute {
        switch kind {
        case .display: .receipts
        case .action: .actions
        case .session: .sessions
        case .conversion: .conversions
        }
    }

    /// Whether a request path (no query) has this route's shape, whatever its method: `:name` takes one segment,
    /// and a trailing `/` is ignored, as the router ignores it.
    func matches(path candidate: Substring) -> Bool {
        let candidate = candidate.count > 1 && candidate.hasSuffix("/") ? candidate.dropLast() : candidate
        var pattern = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)[...]
        var segments = candidate.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)[...]
        while let expected = pattern.popFirst() {
            guard let segment = segments.popFirst() else { return false }
            if expected.first == UInt8(ascii: ":") {
                if segment.isEmpty { return false }
            } else if !expected.elementsEqual(segment) {
                return false
            }
        }
        return segments.isEmpty
    }

    /// The route a request path (no query) has the shape of, whatever its method.
    static func matching(path: Substring) -> APIRoute? {
        allCases.first { $0.matches(path: path) }
    }
}

extension APIRoute {
    /// A requested path as logs may show it: the template of a route whose path carries personal data, else
    /// the path itself.
    static func loggedPath(of requested: String) -> String {
        matching(path: requested[...]).map { $0.loggedPath(requested) } ?? requested
    }
}
