import Foundation
import Hummingbird
import NIOCore
import PushTallyCore

/// `POST /v1/receipts` and `POST /v1/actions`: what extensions and apps report.
///
/// Every step is here once and shared by the router's routes and by ``IngestFastPath``, which answers the
/// same routes on the event loop: the request's limits, rate limit and auth (``admit(headers:path:peer:)``),
/// decoding and validation (``plan(_:contentType:kind:)``), and the answer (``IngestPlan/answer(duplicates:)``).
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

    func ingest(_ request: Request, kind: EventKind, peer: SocketAddress?) async throws -> Response {
        try await admit(headers: request.headers, path: request.uri.description, peer: peer)
        let body = try await reader.read(request)
        let plan = try plan(body, contentType: request.headers[.contentType], kind: kind)
        return try plan.answer(duplicates: try await store.ingest(plan.events)).response
    }

    /// The rate limit, then the ingest key when one is required: what a request must pass before its body counts.
    func admit(headers: HTTPFields, path: String, peer: SocketAddress?) async throws {
        try checkRate(headers: headers, peer: peer)
        if configuration.requireIngestKey { try await checkKey(headers: headers, path: path) }
    }

    /// The per-client rate limit, when configured (no I/O, so the fast path runs it on the event loop).
    func checkRate(headers: HTTPFields, peer: SocketAddress?) throws {
        try limiter?.check(headers: headers, peer: peer)
    }

    /// An `ingest` (or `admin`) token in the `Authorization` header or `?key=`: a database read.
    func checkKey(headers: HTTPFields, path: String) async throws {
        try await authorizer.require(.ingest, headers: headers, queryKey: Authorizer.queryKey(in: path))
    }

    /// Decodes and validates a whole (inflated) body into the events to store and the batch elements refused.
    func plan(_ body: ByteBuffer, contentType: String?, kind: EventKind) throws -> IngestPlan {
        switch try Self.decode(body, contentType: contentType) {
        case .single(let raw):
            return .single(try EventValidator.validate(raw, kind: kind))
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
            return .batch(events, rejected: rejected)
        }
    }

    /// The body's shape from its media type; a missing type is sniffed, since some HTTP stacks drop it.
    static func decode(_ body: ByteBuffer, contentType: String?) throws -> EventBody {
        let bytes = body.readableBytesView
        switch mediaType(contentType) {
        case "application/x-www-form-urlencoded":
            return .single(RawEvent(form: try body.withUnsafeReadableBytes { buffer throws(FieldError) in try FormBody.parse(buffer) }))
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

/// A validated ingest request: what goes to the store, and how to answer once it committed.
enum IngestPlan: Sendable {
    /// One form body or JSON object: `204` after commit.
    case single(IncomingEvent)
    /// A JSON array or NDJSON: `200` with what was accepted, recognised as retries, and refused.
    case batch([IncomingEvent], rejected: [RejectedItem])

    var events: [IncomingEvent] {
        switch self {
        case .single(let event): [event]
        case .batch(let events, _): events
        }
    }

    /// The answer, given the store's per-event retry flags.
    func answer(duplicates: [Bool]) throws -> IngestAnswer {
        switch self {
        case .single:
            return IngestAnswer(status: .noContent, json: nil)
        case .batch(let events, let rejected):
            struct Body: Encodable {
                let accepted: Int
                let duplicates: Int
                let rejected: [RejectedItem]
            }
            let body = Body(accepted: events.count, duplicates: duplicates.filter { $0 }.count, rejected: rejected)
            return IngestAnswer(status: events.isEmpty ? .badRequest : .ok, json: try encodeJSON(body))
        }
    }
}

/// What an ingest request is answered: a status and, for batches, a JSON body.
struct IngestAnswer: Sendable {
    let status: HTTPResponse.Status
    let json: ByteBuffer?

    var response: Response {
        guard let json else { return Response(status: status) }
        return Response(status: status, headers: [.contentType: jsonContentType], body: .init(byteBuffer: json))
    }
}
