import NIOCore
import NIOHTTP1

/// The requests this path passes to Hummingbird's router and the router's answers to them: each answer followed
/// to its last byte on the socket, framed for its request's HTTP version, and the connection closed after it
/// only once it is written.
extension IngestFastPath {
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // Hummingbird's responses pass through here; when one ends, the requests held for it may go. Each final
        // response is followed from its head to its last byte on the socket: a slow reader is closed for taking
        // nothing for the idle timeout, never for taking long (``FastPathStateMachine/responsesBeingWritten``).
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status.code >= 200:
            machine.responseWriteBegan()
            // RFC 9112 §6.1: an HTTP/1.0 client is not sent chunked. A body of no stated length (a report written as
            // it is read) ends with the connection instead, and is answered in HTTP/1.0, whose framing that is.
            if routerRequestVersions.popFirst() == .http1_0, head.status.mayHaveResponseBody,
                !head.headers.contains(name: "content-length")
            {
                head.version = .http1_0
                closeAfterRouterResponse = true
            }
            if closeAfterRouterResponse || machine.routerResponseIsLast {
                closingRouterResponse = true
                head.headers.replaceOrAdd(name: "Connection", value: "close")
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body(.byteBuffer(var buffer)):
            machine.writeProgressed(now: .now())
            // A large part goes in slices, each one's write a sign that the client reads: one buffer of a whole
            // report would be a single write that no slow reader finishes within the idle timeout.
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            while buffer.readableBytes > Self.progressSlice, let slice = buffer.readSlice(length: Self.progressSlice) {
                let written = context.eventLoop.makePromise(of: Void.self)
                context.write(wrapOutboundOut(.body(.byteBuffer(slice))), promise: written)
                written.futureResult.whenSuccess { handler.value.machine.writeProgressed(now: .now()) }
            }
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: promise)
        case .end:
            let written = context.eventLoop.makePromise(of: Void.self)
            if let promise { written.futureResult.cascade(to: promise) }
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            written.futureResult.whenComplete { _ in handler.value.machine.responseWritten(now: .now()) }
            guard !closingRouterResponse else {
                // Closed once the last byte is written, not when it is queued: a close fails the writes still
                // pending, and a large report to a client that sent `Connection: close` (HTTP/1.0, Python's
                // urllib) would arrive cut short after a 200 with its full Content-Length.
                context.writeAndFlush(data, promise: written)
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                written.futureResult.whenComplete { _ in bound.value.close(promise: nil) }
                return
            }
            context.write(data, promise: written)
            if machine.routerResponseEnded(now: .now()) { releaseHeld(context) }
            if let refusal = pendingRefusal, let slot = machine.refusalAfterRouter() {
                pendingRefusal = nil
                answer(refusal, slot: slot, context)
            }
        case .head, .body:
            context.write(data, promise: promise)
        }
    }

    func forwardToRouter(_ part: HTTPServerRequestPart, _ context: ChannelHandlerContext) {
        if case .head(let head) = part {
            if head.method == .CONNECT { closeAfterRouterResponse = true }
            routerRequestVersions.append(head.version)
        }
        forwardedThisRead = true
        context.fireChannelRead(wrapInboundOut(part))
    }

    /// The largest slice of a response body written at once (``write(context:data:promise:)``).
    static let progressSlice = 64 * 1024
}
