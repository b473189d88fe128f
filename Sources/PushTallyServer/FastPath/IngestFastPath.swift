import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTPTypes
import PushTallyCore

/// Answers `POST /v1/receipts` and `POST /v1/actions` on the event loop, beside Hummingbird on the same port.
///
/// Measured here, Hummingbird's per-request machinery (an async channel, a task and a router per request)
/// caps durable ingest at about half of what a bare SwiftNIO server reaches with the same group-commit writer
/// (see the README's Performance section). This handler sits in Hummingbird's pipeline after HTTP decoding;
/// it takes the two ingest routes and passes every other request on untouched. It keeps every promise of
/// the router's routes, mostly by running the same code (``IngestController``):
/// - the same body limit (declared, on the wire, and after gzip inflation), rate limit, ingest-key check,
///   decoding, validation and answers, errors included (``JSONErrorMiddleware/answer(_:method:path:logger:)``);
/// - a 2xx only after the store's group commit holding the request (the store's completion form of `ingest`);
/// - answers in request order on a pipelined connection, whichever path each request takes: a request that
///   needs the other path waits (with reads paused) until the answers ahead of it are written;
/// - idle and slow-request timeouts and graceful shutdown for the whole connection: Hummingbird's own
///   connection-state handler sits after this one and never sees the requests answered here, so it runs
///   without an idle timeout and this handler keeps the connection's clock (``ConnectionClock``: idle
///   connections, and requests that arrive too slowly) and closes on a shutdown's quiesce event only after
///   its own answers are written.
final class IngestFastPath: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// What every connection's handler shares.
    struct Shared: Sendable {
        let ingest: IngestController<PushTallyRequestContext>
        /// `false` passes the ingest routes on to the router too (`serve --no-fast-path`): only the
        /// connection's clock is kept here then.
        let answersIngest: Bool
        let idleTimeout: TimeAmount
        let logger: Logger
        /// Pipelined ingest requests answered concurrently before reads pause.
        var maxPipelined = 64
    }

    /// One answer of this handler, waiting for the answers ahead of it.
    private struct Answer {
        var head: HTTPResponse
        var body: ByteBuffer?
    }

    private enum Reading {
        /// Between requests.
        case idle
        /// Collecting an ingest request's body; its answer goes to `slot`.
        case ingest(HTTPRequest, EventKind, body: ByteBuffer, slot: Int)
        /// Passing another request's parts on to Hummingbird.
        case passing
        /// Throwing away the rest of a body that was already refused (413), counting what was thrown away:
        /// the client may still be sending it and should get the answer, not a reset connection.
        case discarding(bytes: Int)
    }

    private let shared: Shared
    private var reading = Reading.idle
    /// Answers of this handler in request order; `nil` until ready. `firstSlot` is the number of the first.
    private var answers = CircularBuffer<Answer?>()
    private var firstSlot = 0
    /// Requests passed on to Hummingbird whose response has not ended yet.
    private var passedInFlight = 0
    /// Parts of requests that must wait for the other path's answers, in arrival order.
    private var held = CircularBuffer<HTTPRequestPart>()
    private var isReleasingHeld = false
    private var readPending = false
    /// Close once every answer is written (`Connection: close`, or a shutdown).
    private var closeAfterAnswers = false
    private var clock: ConnectionClock
    private var idleCheck: Scheduled<Void>?
    private var context: ChannelHandlerContext?
    private var peer: SocketAddress?
    private var counters = RequestCounters()
    private var date = HTTPDate()

    init(_ shared: Shared) {
        self.shared = shared
        self.clock = ConnectionClock(idleTimeout: shared.idleTimeout, now: .now())
    }

    // MARK: Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { becameActive(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        idleCheck?.cancel()
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        becameActive(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        idleCheck?.cancel()
        self.context = nil
        context.fireChannelInactive()
    }

    private func becameActive(_ context: ChannelHandlerContext) {
        peer = context.channel.remoteAddress
        clock.touch(now: .now())
        scheduleIdleCheck(context, at: clock.deadline)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch part {
        case .head: clock.requestBegan(now: .now())
        case .body(let chunk): clock.received(bytes: chunk.readableBytes, now: .now())
        case .end: clock.requestEnded(now: .now())
        }
        if held.isEmpty {
            process(part, context)
        } else {
            held.append(part)
        }
    }

    func read(context: ChannelHandlerContext) {
        // Back-pressure: while requests wait for the other path, or too many answers are pending, stop reading.
        if !held.isEmpty || answers.count >= shared.maxPipelined {
            readPending = true
        } else {
            context.read()
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // Hummingbird's responses pass through here; when one ends, the requests held for it may go.
        context.write(data, promise: promise)
        if case .end = unwrapOutboundIn(data), passedInFlight > 0 {
            passedInFlight -= 1
            clock.touch(now: .now())
            if passedInFlight == 0 { releaseHeld(context) }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else {
            return context.fireUserInboundEventTriggered(event)
        }
        // Requests not yet started are never answered: the client sees the connection close and retries.
        held.removeAll()
        closeAfterAnswers = true
        if passedInFlight > 0 {
            // Hummingbird's request in flight: its handler closes after that response (ours are never in
            // flight at the same time: a request of one path waits for the other's answers).
            context.fireUserInboundEventTriggered(event)
        } else if answers.isEmpty {
            context.close(promise: nil)
        }
    }

    // MARK: Requests

    private func process(_ part: HTTPRequestPart, _ context: ChannelHandlerContext) {
        switch (reading, part) {
        case (.idle, .head(let head)):
            if closeAfterAnswers { return reading = .discarding(bytes: 0) }
            if shared.answersIngest, let kind = Self.ingestKind(head) {
                if passedInFlight > 0 { return held.append(part) }
                startIngest(head, kind, context)
            } else {
                if !answers.isEmpty { return held.append(part) }
                passedInFlight += 1
                reading = .passing
                context.fireChannelRead(wrapInboundOut(part))
            }
        case (.ingest(let head, let kind, var body, let slot), .body(var chunk)):
            guard body.readableBytes + chunk.readableBytes <= shared.ingest.reader.maxBytes else {
                reading = .discarding(bytes: body.readableBytes + chunk.readableBytes)
                return answer(slot, shared.ingest.reader.tooLarge, kind, head, context)
            }
            reading = .idle  // lets `body` be appended to without a copy
            body.writeBuffer(&chunk)
            reading = .ingest(head, kind, body: body, slot: slot)
        case (.ingest(let head, let kind, let body, let slot), .end):
            reading = .idle
            admit(head, kind, body, slot, context)
        case (.passing, _):
            if case .end = part { reading = .idle }
            context.fireChannelRead(wrapInboundOut(part))
        case (.discarding, .end):
            reading = .idle
        case (.discarding(let bytes), .body(let chunk)):
            reading = .discarding(bytes: bytes + chunk.readableBytes)
            // Past four times the limit, reading on only serves whoever is flooding the connection.
            if bytes + chunk.readableBytes > 4 * shared.ingest.reader.maxBytes { context.close(promise: nil) }
        case (.discarding, .head):
            break
        case (.idle, _), (.ingest, .head):
            // Not HTTP as the decoder delivers it; let Hummingbird's handling refuse it.
            reading = .passing
            passedInFlight += 1
            context.fireChannelRead(wrapInboundOut(part))
        }
    }

    /// The route of an ingest kind, as the router names it.
    static func route(_ kind: EventKind) -> String {
        kind == .display ? "/v1/receipts" : "/v1/actions"
    }

    /// The ingest route a request is for, if it is one this handler answers.
    static func ingestKind(_ head: HTTPRequest) -> EventKind? {
        guard head.method == .post, let target = head.path else { return nil }
        let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[..<$0] } ?? target[...]
        switch path {
        case "/v1/receipts": return .display
        case "/v1/actions": return .action
        default: return nil
        }
    }

    private func startIngest(_ head: HTTPRequest, _ kind: EventKind, _ context: ChannelHandlerContext) {
        let slot = firstSlot + answers.count
        answers.append(nil)
        if head.headerFields[.connection]?.lowercased() == "close" { closeAfterAnswers = true }
        do {
            try shared.ingest.reader.checkDeclaredLength(head.headerFields)
            reading = .ingest(head, kind, body: context.channel.allocator.buffer(capacity: 0), slot: slot)
        } catch {
            reading = .discarding(bytes: 0)
            answer(slot, error, kind, head, context)
        }
    }

    /// The rate limit, then the ingest key when one is required (a database read, so off the event loop): the
    /// same two steps as ``IngestController/admit(headers:path:peer:)``, split so the common case stays here.
    private func admit(_ head: HTTPRequest, _ kind: EventKind, _ body: ByteBuffer, _ slot: Int, _ context: ChannelHandlerContext) {
        let ingest = shared.ingest
        do {
            try ingest.checkRate(headers: head.headerFields, peer: peer)
        } catch {
            return answer(slot, error, kind, head, context)
        }
        guard ingest.configuration.requireIngestKey else { return commit(head, kind, body, slot, context) }
        let loop = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        Task {
            do {
                try await ingest.checkKey(headers: head.headerFields, path: head.path ?? "")
                loop.execute { handler, context in handler.commit(head, kind, body, slot, context) }
            } catch {
                loop.execute { handler, context in handler.answer(slot, error, kind, head, context) }
            }
        }
    }

    /// Inflates, decodes and validates the body, then answers once the store committed it.
    private func commit(_ head: HTTPRequest, _ kind: EventKind, _ body: ByteBuffer, _ slot: Int, _ context: ChannelHandlerContext) {
        let ingest = shared.ingest
        let plan: IngestPlan
        do {
            let body = try ingest.reader.inflate(body, contentEncoding: head.headerFields[.contentEncoding])
            plan = try ingest.plan(body, contentType: head.headerFields[.contentType], kind: kind)
        } catch {
            return answer(slot, error, kind, head, context)
        }
        let loop = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        ingest.store.ingest(plan.events) { result in
            loop.execute { handler, context in
                do {
                    let answer = try plan.answer(duplicates: try result.get())
                    var response = HTTPResponse(status: answer.status)
                    if answer.json != nil { response.headerFields[.contentType] = jsonContentType }
                    handler.fill(slot, Answer(head: response, body: answer.json), kind, context)
                } catch {
                    handler.answer(slot, error, kind, head, context)
                }
            }
        }
    }

    private func answer(_ slot: Int, _ error: any Error, _ kind: EventKind, _ head: HTTPRequest, _ context: ChannelHandlerContext) {
        let apiError = JSONErrorMiddleware<PushTallyRequestContext>.answer(
            error, method: head.method, path: Self.route(kind), logger: shared.logger)
        fill(slot, Answer(head: HTTPResponse(status: apiError.status, headerFields: apiError.responseHeaders), body: apiError.body), kind, context)
    }

    // MARK: Answers

    private func fill(_ slot: Int, _ answer: Answer, _ kind: EventKind, _ context: ChannelHandlerContext) {
        counters.record(kind, status: answer.head.status.code)
        answers[offset: slot - firstSlot] = answer
        writeReadyAnswers(context)
    }

    /// Writes the answers that are ready and have no unanswered request ahead of them.
    private func writeReadyAnswers(_ context: ChannelHandlerContext) {
        guard self.context != nil else { return }
        var wrote = false
        while let first = answers.first, var answer = first {
            answers.removeFirst()
            firstSlot += 1
            answer.head.headerFields[.contentLength] = String(answer.body?.readableBytes ?? 0)
            answer.head.headerFields[.date] = date.now()
            answer.head.headerFields[.server] = "PushTally"
            if closeAfterAnswers, answers.isEmpty { answer.head.headerFields[.connection] = "close" }
            context.write(wrapOutboundOut(.head(answer.head)), promise: nil)
            if let body = answer.body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
            context.write(wrapOutboundOut(.end(nil)), promise: nil)
            wrote = true
        }
        guard wrote else { return }
        context.flush()
        clock.touch(now: .now())
        guard answers.isEmpty else { return }
        if closeAfterAnswers {
            return context.close(promise: nil)
        }
        releaseHeld(context)
    }

    /// Lets requests that waited for the other path go, in order, until one must wait again.
    private func releaseHeld(_ context: ChannelHandlerContext) {
        guard !isReleasingHeld, self.context != nil else { return }
        isReleasingHeld = true
        defer { isReleasingHeld = false }
        var waiting = held
        held.removeAll()
        let released = !waiting.isEmpty
        while let part = waiting.popFirst() {
            if held.isEmpty { process(part, context) } else { held.append(part) }
        }
        // Hummingbird's async channel hands reads on at read-complete; this is outside a read cycle.
        if released { context.fireChannelReadComplete() }
        if held.isEmpty, answers.count < shared.maxPipelined, readPending {
            readPending = false
            context.read()
        }
    }

    // MARK: Idle timeout

    private func scheduleIdleCheck(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        idleCheck?.cancel()
        let loop = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        idleCheck = context.eventLoop.scheduleTask(deadline: deadline) {
            loop.execute { handler, context in handler.idleCheckFired(context) }
        }
    }

    private func idleCheckFired(_ context: ChannelHandlerContext) {
        guard self.context != nil else { return }
        switch clock.check(now: .now(), waitingForServer: !answers.isEmpty || passedInFlight > 0) {
        case .close:
            shared.logger.debug("closing a connection that sat idle or sent too slowly", metadata: ["peer": "\(peer.map { "\($0)" } ?? "-")"])
            context.close(promise: nil)
        case .checkAgain(let deadline): scheduleIdleCheck(context, at: deadline)
        }
    }
}

extension NIOLoopBound {
    /// Runs `body` on the bound event loop with the handler and context this holds.
    fileprivate func execute<Handler>(_ body: @escaping @Sendable (Handler, ChannelHandlerContext) -> Void)
    where Value == (Handler, ChannelHandlerContext) {
        eventLoop.execute { body(self.value.0, self.value.1) }
    }
}

@available(*, unavailable)
extension IngestFastPath: Sendable {}
