import Hummingbird
import Logging
import PushTallyCore

/// `GET /v1/devices/{device_id}/timeline`: one device's events for support, admins only. The raw device id
/// is keyed by the store before lookup, and logs name the route's template, never the id.
struct DeviceController<Context: RequestContext>: Sendable {
    let store: any DeviceTimelineReader
    let authorizer: Authorizer
    /// How long its store work may take (``ServerConfiguration/storeDeadlines``).
    var deadlines = StoreDeadlines()

    func register(on routes: RouteTable<Context>) {
        routes.on(.deviceTimeline) { request, context in try await self.timeline(request, context) }
    }

    func timeline(_ request: Request, _ context: Context) async throws -> Response {
        // The token before anything else: a caller without one learns nothing, not even what a cursor looks like.
        let tokenID = try await authorizer.requireIdentified(.admin, request)
        let query = try QueryValues(request)
        let limit = try query.limit(default: DeviceTimelinePage.defaultLimit, maximum: DeviceTimelinePage.maximumLimit)
        let cursor = try query["after"].map { text throws(FieldError) in try TimelineCursor(text: text) } ?? .start
        let deviceID = try TimelineDeviceID.checked(try pathParameter("device_id", context))
        let page = try await StoreDeadline.run(deadlines.request) { [store] in
            try await store.deviceTimeline(deviceID: deviceID, after: cursor, limit: limit)
        }
        // Every read is accountable: which token looked, never which device (the template stands for it).
        context.logger.info(
            "device timeline read",
            metadata: [
                "token_id": "\(tokenID)", "route": "\(APIRoute.deviceTimeline.path)", "events": "\(page.entries.count)",
            ])
        return .jsonText(page.json)
    }
}
