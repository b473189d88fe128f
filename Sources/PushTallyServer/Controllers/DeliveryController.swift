import Foundation
import Hummingbird
import PushTallyCore

/// The push backend's per-device deliveries: ``APIRoute/recordDeliveries`` takes one line per device a push went to
/// (``DeliveryLine``), as NDJSON or a JSON array, plain or gzip, behind a `backend` token, and stores a post whole or
/// not at all.
struct DeliveryController<Context: RequestContext>: Sendable {
    /// The largest post accepted, inflated: ``DeliveryReader/maxLines`` lines of about 200 bytes.
    static var maxBodyBytes: Int { 32 << 20 }

    let store: any DeviceDeliveryStore
    let authorizer: Authorizer
    let reader: BodyReader
    /// How long its store work may take (``ServerConfiguration/storeDeadlines``).
    var deadlines = StoreDeadlines()

    func register(on routes: RouteTable<Context>) {
        routes.on(.recordDeliveries, authorizedBy: authorizer) { request, context in try await self.post(request, context) }
    }

    func post(_ request: Request, _ context: Context) async throws -> Response {
        let pushID = try pathParameter("push_id", context)
        guard let id = try EventValidator.checkedText(pushID, field: "push_id", limit: 128) else { throw FieldError.missing("push_id") }
        let type = mediaType(request.headers[.contentType])
        guard [nil, "application/x-ndjson", "application/jsonl", "application/json"].contains(type) else {
            throw APIError(.unsupportedMediaType, "unsupported_media_type", "delivery lines are NDJSON (application/x-ndjson) or a JSON array")
        }
        let body = try await reader.read(request)
        let lines: [DeliveryLine]
        do throws(FCMRowError) {
            lines = try DeliveryReader.lines(Data(body.readableBytesView))
        } catch {
            throw APIError(error)
        }
        do {
            let summary = try await StoreDeadline.run(deadlines.request) { [store] in try await store.recordDeliveries(pushID: id, lines) }
            return try .json(summary)
        } catch StoreError.pushNotRegistered {
            throw APIError(
                .notFound, "push_not_registered", "push \(id) is not registered; register it (PUT /v1/pushes/{push_id}) before its deliveries",
                field: "push_id")
        }
    }
}
