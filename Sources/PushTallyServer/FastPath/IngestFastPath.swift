import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import PushTallyCore

/// Answers ``APIRoute/receipts`` and ``APIRoute/actions`` on the event loop, beside Hummingbird on the same port.
///
/// Hummingbird's per-request machinery (an async channel, a task and a router per request) costs more than a
/// receipt's whole durable commit share (docs/PERFORMANCE.md has the figures). This handler sits in Hummingbird's pipeline after HTTP/1 decoding
/// and before the conversion to HTTPTypes (``FastPathHTTP1Channel``); it takes the ingest routes and passes every
/// other request on untouched.
///
/// It is a thin shell: ``IngestPipeline`` decides every answer, exactly as on the router's routes (a 2xx only
/// after the store's group commit holding the request), and ``FastPathStateMachine`` keeps the connection's
/// rules (answers in request order across both paths, body limits, `Connection: close`, back-pressure, the
/// idle and slow-client clock, closing on a shutdown's quiesce only after this path's answers are written).
/// This class feeds it events and does what it says. Hummingbird's own connection-state handler sits after
/// this one and never sees the requests answered here, so it runs without an idle timeout.
final class IngestFastPath: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    let shared: Shared
    var machine: FastPathStateMachine
    var idleCheck: Scheduled<Void>?
    /// What the client had acknowledged when last asked (``PeerAcknowledgement``), while an answer is written.
    var acknowledged: UInt64 = 0
    var context: ChannelHandlerContext?
    private var mailbox: AnswerMailbox?
    var peer: SocketAddress?
    private var counters = RequestCounters()
    private var date = HTTPDate()
    /// The last plain answer's framed head (no body or headers of its own, connection kept), reused while its
    /// status and `Date` second are the same: most answers are a `204` like the one before.
    private var plainHead: (status: HTTPResponse.Status, date: String, head: HTTPResponseHead)?
    /// The response the router is writing answers a CONNECT: the parser reads nothing after one, so close.
    var closeAfterRouterResponse = false
    /// The versions of the requests passed to the router whose answers have not begun, oldest first.
    var routerRequestVersions = CircularBuffer<HTTPVersion>(initialCapacity: 4)
    /// The router's response being written is the connection's last: it says `Connection: close`, and the
    /// connection closes after its end.
    var closingRouterResponse = false
    /// SwiftNIO's parser failed: what it reports after that (bytes refused in its error state) is not news.
    var parserFailed = false
    /// The read the decoder is working through (``BytesArrivedHandler``), for the refusal of a parser failure.
    var bytesBeingDecoded: ByteBuffer?
    /// A refusal waiting for the router's responses in flight (``FastPathStateMachine/refusalAfterRouter()``).
    var pendingRefusal: APIError?
    /// A part went on to the router in this read cycle: only then does its async channel need read-complete,
    /// which single receipts would otherwise pay a hand-over for on every read.
    var forwardedThisRead = false

    init(_ shared: Shared) {
        self.shared = shared
        self.machine = FastPathStateMachine(
            .init(
                answersIngest: shared.answersIngest, bodyLimit: shared.pipeline.reader, maxPipelined: shared.maxPipelined,
                limits: shared.limits),
            now: .now())
    }

    // MARK: Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        mailbox = shared.mailboxes.mailbox(for: context.eventLoop)
        // On every connection: eviction needs to know of bytes the decoder has not made a part of, and the refusal
        // of bytes the parser fails on reads them (its error alone can name the wrong problem).
        let pipeline = context.pipeline.syncOperations
        try? pipeline.addHandler(BytesArrivedHandler(self), position: .first)
        // Right before the HTTP decoder: behind TLS, the bytes it reads are the plaintext.
        if let decoder = try? pipeline.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self) {
            try? pipeline.addHandler(TrailingListElements(), position: .before(decoder.handler))
        }
        if context.channel.isActive { becameActive(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        idleCheck?.cancel()
        self.context = nil
        shared.registry?.unregister(self, on: context.eventLoop)
    }

    func channelActive(context: ChannelHandlerContext) {
        becameActive(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        idleCheck?.cancel()
        self.context = nil
        shared.registry?.unregister(self, on: context.eventLoop)
        context.fireChannelInactive()
    }

    private func becameActive(_ context: ChannelHandlerContext) {
        peer = context.channel.remoteAddress
        scheduleIdleCheck(context, at: machine.becameActive(now: .now()))
        shared.registry?.register(NIOLoopBound(self, eventLoop: context.eventLoop))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        perform(machine.received(unwrapInboundIn(data), now: .now()), context)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        guard forwardedThisRead else { return }
        forwardedThisRead = false
        context.fireChannelReadComplete()
    }

    func read(context: ChannelHandlerContext) {
        if machine.readRequested() { context.read() }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { machine.writeProgressed(now: .now()) }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            // Every complete request before a half-close is answered, in order, before the router hears of it
            // (it closes the connection at once when it has nothing in flight).
            if machine.inputClosed() { context.fireUserInboundEventTriggered(event) }
            return
        }
        guard event is ChannelShouldQuiesceEvent else {
            return context.fireUserInboundEventTriggered(event)
        }
        switch machine.quiesce() {
        case .forwardToRouter: context.fireUserInboundEventTriggered(event)
        case .close: context.close(promise: nil)
        case .closeAfterAnswers: break
        }
    }

    // MARK: Actions

    private func perform(_ action: FastPathStateMachine.PartAction, _ context: ChannelHandlerContext) {
        switch action {
        case .nothing:
            break
        case .forward(let part):
            forwardToRouter(part, context)
        case .continueThenForward(let part):
            writeContinue(context)
            forwardToRouter(part, context)
        case .checkContinue(let request):
            let loop = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let pipelineRequest = pipelineRequest(route: request.route, kind: request.kind, target: request.head.uri, fields: request.fields)
            shared.pipeline.refusalBeforeBody(pipelineRequest) { refusal in
                if loop.eventLoop.inEventLoop { return loop.value.0.continueDecided(refusal, loop.value.1) }
                loop.execute { handler, context in handler.continueDecided(refusal, context) }
            }
        case .ingest(let request, let body):
            let sink = AnswerSink(
                loop: NIOLoopBound((self, context), eventLoop: context.eventLoop), slot: request.slot,
                mailbox: mailbox ?? shared.mailboxes.mailbox(for: context.eventLoop))
            shared.pipeline.process(pipelineRequest(request), body: body, sink: sink)
        case .refuseTooLarge(let request):
            answer(shared.pipeline.refusal(shared.pipeline.reader.tooLarge, pipelineRequest(request)), slot: request.slot, context)
        case .refuse(let refusal, let slot):
            answer(refusal, slot: slot, context)
        case .close:
            context.close(promise: nil)
        }
    }

    func pipelineRequest(_ request: FastPathStateMachine.IngestRequest) -> IngestPipeline.Request {
        pipelineRequest(route: request.route, kind: request.kind, target: request.target, fields: request.fields)
    }

    private func pipelineRequest(route: APIRoute, kind: EventKind, target: String, fields: HTTPFields) -> IngestPipeline.Request {
        IngestPipeline.Request(route: route, kind: kind, headers: fields, target: target, peer: peer, logger: shared.logger)
    }

    // MARK: Expect: 100-continue

    /// The head of a request that waits for `100 Continue` was judged: invite its body, or refuse it and close.
    private func continueDecided(_ refusal: IngestResponse?, _ context: ChannelHandlerContext) {
        guard self.context != nil else { return }
        if let refusal {
            guard let slot = machine.continueRefused() else { return }
            return answer(refusal, slot: slot, context)
        }
        guard let action = machine.continueAdmitted() else { return }
        writeContinue(context)
        perform(action, context)
        // A head passed on outside a read cycle reaches the router at read-complete.
        if case .forward = action {
            forwardedThisRead = false
            context.fireChannelReadComplete()
        }
        releaseHeld(context)
    }

    /// The interim answer: nothing is unanswered ahead of it, and the final answer follows.
    private func writeContinue(_ context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .continue))), promise: nil)
    }

    /// The pipeline's answer to the request in `slot`, on the event loop.
    func answer(_ response: IngestResponse, slot: Int, _ context: ChannelHandlerContext) {
        counters.record(response)
        machine.answerReady(.init(head: HTTPResponse(status: response.status, headerFields: response.headers), body: response.body), slot: slot)
        writeReadyAnswers(context)
    }

    /// Writes the answers that are ready and have no unanswered request ahead of them.
    func writeReadyAnswers(_ context: ChannelHandlerContext) {
        guard self.context != nil else { return }
        var wrote = false
        while case let (answer, isLast)? = machine.nextAnswerToWrite() {
            context.write(wrapOutboundOut(.head(framedHead(answer, isLast: isLast))), promise: nil)
            if let body = answer.body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
            context.write(wrapOutboundOut(.end(nil)), promise: nil)
            wrote = true
        }
        guard wrote else { return }
        context.flush()
        switch machine.answersWritten(now: .now()) {
        case .nothing: break
        case .close: return context.close(promise: nil)
        case .releaseHeld: releaseHeld(context)
        case .read: context.read()
        }
        if machine.inputClosedMayPass() { context.fireUserInboundEventTriggered(ChannelEvent.inputClosed) }
    }

    /// The answer's head with the framing fields: `Content-Length`, `Date`, `Server`, and `Connection: close`
    /// on the last.
    private func framedHead(_ answer: FastPathStateMachine.Answer, isLast: Bool) -> HTTPResponseHead {
        let now = date.now()
        let status = answer.head.status
        let plain = answer.body == nil && !isLast && answer.head.headerFields.isEmpty
        if plain, let cached = plainHead, cached.status == status, cached.date == now { return cached.head }
        var headers = HTTPHeaders()
        headers.reserveCapacity(answer.head.headerFields.count + 4)
        for field in answer.head.headerFields { headers.add(name: field.name.rawName, value: field.value) }
        headers.add(name: "Content-Length", value: String(answer.body?.readableBytes ?? 0))
        headers.add(name: "Date", value: now)
        headers.add(name: "Server", value: "PushTally")
        if isLast { headers.add(name: "Connection", value: "close") }
        let head = HTTPResponseHead(
            version: .http1_1, status: HTTPResponseStatus(statusCode: status.code, reasonPhrase: status.reasonPhrase), headers: headers)
        if plain { plainHead = (status, now, head) }
        return head
    }

    /// Lets requests that waited for the other path go, in order, until one must wait again.
    func releaseHeld(_ context: ChannelHandlerContext) {
        guard self.context != nil, machine.beginReleasingHeld() else { return }
        while let action = machine.releaseNextHeld() {
            perform(action, context)
        }
        let (readComplete, read) = machine.endReleasingHeld()
        // Hummingbird's async channel hands reads on at read-complete; this is outside a read cycle.
        if readComplete {
            forwardedThisRead = false
            context.fireChannelReadComplete()
        }
        if read { context.read() }
        if machine.inputClosedMayPass() { context.fireUserInboundEventTriggered(ChannelEvent.inputClosed) }
    }

}

@available(*, unavailable)
extension IngestFastPath: Sendable {}
