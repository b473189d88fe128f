import Foundation
import Hummingbird
import PushTallyCore

/// The push backend's send records: ``APIRoute/registerPush``, ``APIRoute/registerPushes`` and
/// ``APIRoute/recordSends``, each behind a token of the route's role (`backend`).
struct PushController<Context: RequestContext>: Sendable {
    let store: any PushRegistry
    let authorizer: Authorizer
    let reader: BodyReader
    let maxBatch: Int
    /// How long its store work may take (``ServerConfiguration/storeDeadlines``).
    var deadlines = StoreDeadlines()

    func register(on routes: RouteTable<Context>) {
        routes.on(.registerPush, authorizedBy: authorizer) { request, context in try await self.put(request, context) }
        routes.on(.registerPushes, authorizedBy: authorizer) { request, _ in try await self.postBatch(request) }
        routes.on(.recordSends, authorizedBy: authorizer) { request, context in try await self.postSends(request, context) }
    }

    struct Registered: Encodable {
        let push_id: String
        let status: String
    }

    struct SendsRecorded: Encodable {
        let push_id: String
        let batch_id: String
        let status: String
    }

    func put(_ request: Request, _ context: Context) async throws -> Response {
        let pushID = try pathParameter("push_id", context)
        let json = try JSONValue.parse(try await jsonBody(request))
        let push = try PushValidator.registration(json, pushID: pushID)
        let outcome = try await StoreDeadline.run(deadlines.request) { [store] in try await store.register(push) }
        return try .json(
            Registered(push_id: push.pushID, status: outcome == .created ? "created" : "updated"),
            status: outcome == .created ? .created : .ok)
    }

    func postBatch(_ request: Request) async throws -> Response {
        let body = try await reader.read(request)
        let data = Data(body.readableBytesView)
        let elements: [Result<JSONValue, FieldError>]
        if mediaType(request.headers[.contentType])?.contains("ndjson") == true {
            elements = data.split(separator: UInt8(ascii: "\n"))
                .filter { $0.contains { !$0.isJSONWhitespace } }
                .map { line in Result { () throws(FieldError) in try JSONValue.parse(Data(line)) } }
        } else {
            try requireJSON(request)
            guard case .array(let values) = try JSONValue.parse(data) else {
                throw APIError(.badRequest, "malformed_json", "expected a JSON array of push records (or NDJSON)")
            }
            elements = values.map { .success($0) }
        }
        guard elements.count <= maxBatch else {
            throw APIError(.contentTooLarge, "batch_too_large", "a batch holds at most \(maxBatch) push records")
        }
        var pushes: [(index: Int, push: PushRegistration)] = []
        var rejected: [RejectedItem] = []
        for (index, element) in elements.enumerated() {
            do throws(FieldError) {
                pushes.append((index, try PushValidator.registration(try element.get())))
            } catch {
                rejected.append(RejectedItem(index: index, error: error.code, message: error.message, field: error.field))
            }
        }
        var created = 0
        var updated = 0
        let registrations = pushes.map(\.push)
        let outcomes = try await StoreDeadline.run(deadlines.request) { [store] in try await store.register(registrations) }
        for ((index, _), outcome) in zip(pushes, outcomes) {
            switch outcome {
            case .success(.created): created += 1
            case .success(.updated): updated += 1
            case .failure(let error):
                let api = JSONErrorMiddleware<Context>.apiError(for: error, logger: .init(label: "pushtally"))
                rejected.append(RejectedItem(index: index, error: api.code, message: api.message, field: api.field))
            }
        }
        rejected.sort { $0.index < $1.index }
        let accepted = created + updated
        return try .json(
            PushBatchAnswer(accepted: accepted, created: created, updated: updated, rejected: rejected),
            status: accepted == 0 ? .badRequest : .ok)
    }

    func postSends(_ request: Request, _ context: Context) async throws -> Response {
        let pushID = try pathParameter("push_id", context)
        let batch = try PushValidator.sendBatch(try JSONValue.parse(try await jsonBody(request)), pushID: pushID)
        try await StoreDeadline.run(deadlines.request) { [store] in try await store.addSends(batch) }
        return try .json(SendsRecorded(push_id: batch.pushID, batch_id: batch.batchID, status: "recorded"))
    }

    private func jsonBody(_ request: Request) async throws -> Data {
        try requireJSON(request)
        return Data(try await reader.read(request).readableBytesView)
    }

    private func requireJSON(_ request: Request) throws {
        let type = mediaType(request.headers[.contentType])
        guard type == nil || type == "application/json" else {
            throw APIError(.unsupportedMediaType, "unsupported_media_type", "push records are application/json")
        }
    }
}

extension UInt8 {
    var isJSONWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
