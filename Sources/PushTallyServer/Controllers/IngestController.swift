import Foundation
import Hummingbird
import NIOCore
import PushTallyCore

/// `POST /v1/receipts` and `POST /v1/actions`: what extensions and apps report.
struct IngestController<Context: RequestContext & RemoteAddressRequestContext>: Sendable {
    let store: any PushTallyStore
    let authorizer: Authorizer
    let configuration: ServerConfiguration
    let reader: BodyReader
    /// Per-client-IP limit, when configured (off by default).
    let limiter: RateLimiter?

    func register(on routes: RouteTable<Context>) {
        routes.on(.post, "/v1/receipts") { request, context in
            try await self.ingest(request, kind: .display, peer: context.remoteAddress)
        }
        routes.on(.post, "/v1/actions") { request, context in
            try await self.ingest(request, kind: .action, peer: context.remoteAddress)
        }
    }

    struct BatchAnswer: Encodable {
        let accepted: Int
        let duplicates: Int
        let rejected: [RejectedItem]
    }

    func ingest(_ request: Request, kind: EventKind, peer: SocketAddress?) async throws -> Response {
        try limiter?.check(request, peer: peer)
        if configuration.requireIngestKey {
            try await authorizer.require(.ingest, request, allowQueryKey: true)
        }
        let body = try await reader.read(request)
        switch try Self.decode(body, contentType: request.headers[.contentType]) {
        case .single(let raw):
            let event = try EventValidator.validate(raw, kind: kind)
            _ = try await store.ingest([event])
            return Response(status: .noContent)
        case .batch(let items):
            guard items.count <= configuration.maxBatchEvents else {
                throw APIError(
                    .contentTooLarge, "batch_too_large",
                    "a batch holds at most \(configuration.maxBatchEvents) events; this one has \(items.count)")
            }
            var events: [IncomingEvent] = []
            var rejected: [RejectedItem] = []
            events.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                do throws(FieldError) {
                    events.append(try EventValidator.validate(try item.get(), kind: kind))
                } catch {
                    rejected.append(RejectedItem(index: index, error: error.code, message: error.message, field: error.field))
                    ServerMetrics.rejected(error.code)
                }
            }
            let duplicates = try await store.ingest(events).filter { $0 }.count
            let answer = BatchAnswer(accepted: events.count, duplicates: duplicates, rejected: rejected)
            return try .json(answer, status: events.isEmpty ? .badRequest : .ok)
        }
    }

    /// The body's shape from its media type; a missing type is sniffed, since some HTTP stacks drop it.
    static func decode(_ body: ByteBuffer, contentType: String?) throws -> EventBody {
        let bytes = body.readableBytesView
        switch mediaType(contentType) {
        case "application/x-www-form-urlencoded":
            return .single(RawEvent(form: try FormBody.parse(bytes)))
        case "application/json":
            return try EventBody.json(Data(bytes))
        case "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines":
            return EventBody.ndjson(Data(bytes))
        case nil:
            let first = bytes.first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return try EventBody.json(Data(bytes)) }
            return .single(RawEvent(form: try FormBody.parse(bytes)))
        case let other?:
            throw APIError(
                .unsupportedMediaType, "unsupported_media_type",
                "Content-Type \(other) is not accepted; use application/x-www-form-urlencoded, application/json or application/x-ndjson")
        }
    }
}
