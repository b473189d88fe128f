import Foundation
import Hummingbird
import NIOCore
import PushTallyCore

/// A decoded and validated ingest body: what goes to the store, and how to answer once it committed.
enum IngestPlan: Sendable {
    /// One form body or JSON object: `204` after commit.
    case single(IncomingEvent)
    /// A JSON array or NDJSON: `200` with what was accepted, recognised as retries, and refused.
    case batch([IncomingEvent], rejected: [RejectedItem])

    /// Decodes and validates a whole (inflated) body into the events to store and the batch elements refused.
    init(_ body: ByteBuffer, contentType: String?, kind: EventKind, maxBatchEvents: Int) throws {
        switch try Self.decode(body, contentType: contentType) {
        case .single(let raw):
            self = .single(try EventValidator.validate(raw, kind: kind))
        case .batch(let items):
            guard items.count <= maxBatchEvents else {
                throw APIError(
                    .contentTooLarge, "batch_too_large",
                    "a batch holds at most \(maxBatchEvents) events; this one has \(items.count)")
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
            self = .batch(events, rejected: rejected)
        }
    }

    var events: [IncomingEvent] {
        switch self {
        case .single(let event): [event]
        case .batch(let events, _): events
        }
    }

    /// What the answer needs once the events committed: their count and refusals, not the events, so the
    /// completion the store holds until its commit carries no copy of them.
    var answer: IngestAnswer {
        switch self {
        case .single: .single
        case .batch(let events, let rejected): .batch(accepted: events.count, rejected: rejected)
        }
    }

    /// The body's shape from its media type; a missing type is sniffed, since some HTTP stacks drop it.
    static func decode(_ body: ByteBuffer, contentType: String?) throws -> EventBody {
        switch try shape(contentType: contentType) {
        case .form:
            return .single(try body.withUnsafeReadableBytes { buffer throws(FieldError) in try FormBody.rawEvent(buffer) })
        case .json:
            return try body.withUnsafeReadableBytes { buffer throws(FieldError) in try EventBody.json(buffer) }
        case .ndjson:
            return body.withUnsafeReadableBytes { EventBody.ndjson($0) }
        case .sniffed:
            return try body.withUnsafeReadableBytes { bytes throws(FieldError) in
                let first = bytes.first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
                if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return try EventBody.json(bytes) }
                return .single(try FormBody.rawEvent(bytes))
            }
        }
    }

    enum Shape {
        case form, json, ndjson
        /// No `Content-Type`: decided by the body's first byte.
        case sniffed
    }

    /// How a body of `contentType` is decoded; 415 for a type no decoder takes, known before a byte of the body
    /// is read (`Expect: 100-continue` is refused on it).
    static func shape(contentType: String?) throws -> Shape {
        // The extension's own header, exactly as it sends it, without parsing it for parameters or case.
        if contentType == "application/x-www-form-urlencoded" { return .form }
        return switch mediaType(contentType) {
        case "application/x-www-form-urlencoded": .form
        case "application/json": .json
        case "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines": .ndjson
        case nil: .sniffed
        case let other?:
            throw APIError(
                .unsupportedMediaType, "unsupported_media_type",
                "Content-Type \(other) is not accepted; use application/x-www-form-urlencoded, application/json or application/x-ndjson")
        }
    }
}

/// How an ingest request is answered once its events committed (``IngestPlan/answer``).
enum IngestAnswer: Sendable {
    /// One form body or JSON object: `204`.
    case single
    /// A JSON array or NDJSON: `200` with what was accepted, recognised as retries, and refused.
    case batch(accepted: Int, rejected: [RejectedItem])

    /// The answer, given the store's per-event retry flags.
    func response(duplicates: [Bool], route: APIRoute) throws -> IngestResponse {
        switch self {
        case .single:
            return IngestResponse(route: route, status: .noContent, headers: HTTPFields(), body: nil)
        case .batch(let accepted, let rejected):
            struct Body: Encodable {
                let accepted: Int
                let duplicates: Int
                let rejected: [RejectedItem]
            }
            let repeated = duplicates.reduce(0) { $1 ? $0 + 1 : $0 }
            // The common answer, every element taken, is written as JSONEncoder would write it (sorted keys)
            // without setting one up per request.
            let body = rejected.isEmpty
                ? ByteBuffer(string: "{\"accepted\":\(accepted),\"duplicates\":\(repeated),\"rejected\":[]}")
                : try encodeJSON(Body(accepted: accepted, duplicates: repeated, rejected: rejected))
            return IngestResponse(
                route: route, status: accepted == 0 ? .badRequest : .ok, headers: [.contentType: jsonContentType], body: body)
        }
    }
}
