import Hummingbird
import Logging
import NIOCore
import PushTallyCore

/// Every step an ingest request takes, written once: admission (the body limit, the rate limit, the ingest key),
/// decoding and validation, the hand-over to the store's writer, and the answer.
///
/// The router's ingest routes (``IngestController``) and the event-loop fast path (``IngestFastPath``) are two
/// adapters that move bytes in and answers out; neither decides anything an ingest request is answered.
/// The steps run in one order on both: the declared body length as soon as the head is in, the body's length
/// as it arrives (``BodyReader``), then ``process(_:body:sink:)``. Every answer leaves as an
/// ``IngestResponse``, which the adapter counts (``RequestCounters``) and writes.
struct IngestPipeline: Sendable {
    let store: any EventIngestor
    let authorizer: Authorizer
    let configuration: ServerConfiguration
    /// The body limit, declared, on the wire and after gzip inflation.
    let reader: BodyReader
    /// Per-client-IP limit, when configured (off by default).
    let limiter: RateLimiter?
    /// Requests waiting for their commit, shed past `configuration.maxIngestInFlight`.
    let inFlight: InFlightLimit

    init(store: any EventIngestor, authorizer: Authorizer, configuration: ServerConfiguration, reader: BodyReader, limiter: RateLimiter?) {
        self.store = store
        self.authorizer = authorizer
        self.configuration = configuration
        self.reader = reader
        self.limiter = limiter
        self.inFlight = InFlightLimit(bound: configuration.maxIngestInFlight)
    }

    /// What the pipeline needs of a request besides its body.
    struct Request: Sendable {
        let route: APIRoute
        let kind: EventKind
        let headers: HTTPFields
        /// The request target, query included: an ingest key may come as `?key=`.
        let target: String
        let peer: SocketAddress?
        /// Where a refusal is logged (the router's request logger carries the request's id).
        let logger: Logger
    }

    /// The ingest route a request is for (method by name and path, its query aside), if it is one.
    static func route(methodName: String, target: String) -> (APIRoute, EventKind)? {
        let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[..<$0] } ?? target[...]
        for route in APIRoute.ingestRoutes where path == route.path && route.method.rawValue == methodName {
            if let kind = route.eventKind { return (route, kind) }
        }
        return nil
    }

    /// The rate limit, then the ingest key when one is required, then the store; `sink` gets the answer once,
    /// on whatever thread has it. The body arrived whole and within the limit.
    ///
    /// The key is a database read, so it is checked off the calling thread; everything else runs on it until
    /// the store takes the events, so the fast path's common case never leaves the event loop.
    func process<Sink: IngestSink>(_ request: Request, body: ByteBuffer, sink: Sink) {
        if let refusal = refusalOfOrigin(request) { return sink.deliver(refusal) }
        do {
            if let mark = request.target.utf8.firstIndex(of: UInt8(ascii: "?")) {
                try request.route.checkQuery(request.target[request.target.index(after: mark)...])
            }
            try limiter?.check(headers: request.headers, peer: request.peer)
        } catch {
            return sink.deliver(refusal(error, request))
        }
        let roles = request.route.acceptedRoles
        guard configuration.requireIngestKey, !roles.isEmpty else { return commit(request, body, sink) }
        Task {
            do {
                try await authorizer.require(anyOf: roles, headers: request.headers, queryKey: APIRoute.queryKey(in: request.target))
            } catch {
                return sink.deliver(refusal(error, request))
            }
            commit(request, body, sink)
        }
    }

    /// Inflates, decodes and validates the body, then answers once the store committed it (or refused it:
    /// an overloaded writer, or too many requests already waiting for it, is a 503 with `Retry-After`).
    private func commit<Sink: IngestSink>(_ request: Request, _ body: ByteBuffer, _ sink: Sink) {
        let plan: IngestPlan
        do {
            let body = try reader.inflate(body, contentEncoding: request.headers.value(of: .contentEncoding))
            plan = try IngestPlan(body, contentType: request.headers.value(of: .contentType), kind: request.kind, maxBatchEvents: configuration.maxBatchEvents)
        } catch {
            return sink.deliver(refusal(error, request))
        }
        guard inFlight.enter() else { return sink.deliver(refusal(WriterError.overloaded, request)) }
        let answer = plan.answer
        // The completion holds what the answer needs until the commit, not the whole pipeline.
        store.ingest(plan.events) { [inFlight, cors = configuration.cors] result in
            inFlight.leave()
            do {
                sink.deliver(Self.allowingOrigin(try answer.response(duplicates: try result.get(), route: request.route), request, cors))
            } catch {
                sink.deliver(Self.refusal(error, request, cors))
            }
        }
    }

    /// The JSON error answer for anything that stopped a request, logged and counted as a rejection when it
    /// is the client's (``JSONErrorMiddleware/answer(_:method:path:logger:)``, shared with every other route).
    func refusal(_ error: any Error, _ request: Request) -> IngestResponse {
        Self.refusal(error, request, configuration.cors)
    }

    private static func refusal(_ error: any Error, _ request: Request, _ cors: CORSPolicy) -> IngestResponse {
        let apiError = JSONErrorMiddleware<BasicRequestContext>.answer(
            error, method: request.route.method, path: request.route.path, logger: request.logger)
        return allowingOrigin(
            IngestResponse(route: request.route, status: apiError.status, headers: apiError.responseHeaders, body: apiError.body),
            request, cors)
    }

    /// The `403` for a browser on an origin `serve --cors-origin` does not list, before anything else of the
    /// request is looked at: its events are never stored, whatever else is wrong with them.
    func refusalOfOrigin(_ request: Request) -> IngestResponse? {
        guard configuration.cors.verdict(request.headers) == .refused else { return nil }
        return refusal(CORSPolicy.refusal, request)
    }

    /// `response` with the CORS headers when the request came from a listed origin, so its scripts can read
    /// the answer (errors too); unchanged otherwise.
    private static func allowingOrigin(_ response: IngestResponse, _ request: Request, _ cors: CORSPolicy) -> IngestResponse {
        guard case .allowed(let origin) = cors.verdict(request.headers) else { return response }
        var headers = response.headers
        headers.append(contentsOf: CORSPolicy.answerHeaders(for: origin))
        return IngestResponse(route: response.route, status: response.status, headers: headers, body: response.body)
    }
}

/// Where ``IngestPipeline`` hands a request's answer: exactly once, on any thread.
protocol IngestSink: Sendable {
    func deliver(_ response: IngestResponse)
}

/// What an ingest request is answered, on either path.
struct IngestResponse: Sendable {
    let route: APIRoute
    let status: HTTPResponse.Status
    /// `Content-Type` and the error's own headers (`Retry-After`); the adapter adds the framing ones.
    let headers: HTTPFields
    let body: ByteBuffer?
}

extension APIRoute {
    /// The routes that take events (receipts, actions, sessions and conversions), in the table's order.
    static let ingestRoutes = allCases.filter { $0.eventKind != nil }
}
