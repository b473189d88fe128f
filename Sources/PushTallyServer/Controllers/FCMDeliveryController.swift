import Foundation
import Hummingbird
import PushTallyCore

/// FCM's delivery data: ``APIRoute/fcmDelivery`` takes rows of its BigQuery export of message events as NDJSON
/// (plain, `Content-Encoding: gzip`, or a body that is itself a `.gz` file, as `bq extract` writes them), behind
/// a `backend` token, and stores them whole or not at all.
struct FCMDeliveryController<Context: RequestContext>: Sendable {
    /// The largest export accepted in one request, inflated (``FCMExportReader/maxFileBytes``).
    static var maxBodyBytes: Int { FCMExportReader.maxFileBytes }

    let store: any FCMDeliveryStore
    let authorizer: Authorizer
    let reader: BodyReader
    /// How long its store work may take (``ServerConfiguration/storeDeadlines``).
    var deadlines = StoreDeadlines()

    func register(on routes: RouteTable<Context>) {
        routes.on(.fcmDelivery, authorizedBy: authorizer) { request, _ in try await self.post(request) }
    }

    func post(_ request: Request) async throws -> Response {
        let type = mediaType(request.headers[.contentType])
        let accepted = [nil, "application/x-ndjson", "application/jsonl", "application/json", "application/gzip", "text/plain"]
        guard accepted.contains(type) else {
            throw APIError(
                .unsupportedMediaType, "unsupported_media_type", "FCM export rows are NDJSON (application/x-ndjson), plain or gzip")
        }
        var body = try await reader.read(request)
        // A `.gz` file posted as it is, without Content-Encoding: NDJSON never starts with gzip's magic bytes.
        if body.getInteger(at: body.readerIndex, as: UInt8.self) == 0x1F, body.getInteger(at: body.readerIndex + 1, as: UInt8.self) == 0x8B {
            body = try reader.inflate(body, contentEncoding: "gzip")
        }
        let rows: [FCMExportRow]
        do throws(FCMRowError) {
            rows = try FCMExportReader.rows(Data(body.readableBytesView))
        } catch {
            throw APIError(error)
        }
        let summary = try await StoreDeadline.run(deadlines.request) { [store] in try await store.importFCM(rows) }
        return try .json(summary)
    }
}

extension APIError {
    /// The `400` of a refused line of an NDJSON post (an FCM export row, a delivery line): its code and field, the
    /// message naming the line, and the line's number.
    init(_ error: FCMRowError) {
        self.init(error.error)
        message = error.description
        line = error.line
    }
}
