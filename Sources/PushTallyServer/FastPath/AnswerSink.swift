import NIOCore

/// Brings the pipeline's answer to the connection's event loop.
struct AnswerSink: IngestSink {
    let loop: NIOLoopBound<(IngestFastPath, ChannelHandlerContext)>
    let slot: Int
    /// The loop's mailbox, for answers from the writer thread.
    let mailbox: AnswerMailbox

    func deliver(_ response: IngestResponse) {
        let slot = slot
        // A refusal before the store (a bad body, the rate limit) is answered at once, as it comes in.
        if loop.eventLoop.inEventLoop {
            let (handler, context) = loop.value
            return handler.answer(response, slot: slot, context)
        }
        mailbox.post(response, slot: slot, to: loop)
    }
}

extension NIOLoopBound {
    /// Runs `body` on the bound event loop with the handler and context this holds.
    func execute<Handler>(_ body: @escaping @Sendable (Handler, ChannelHandlerContext) -> Void)
    where Value == (Handler, ChannelHandlerContext) {
        eventLoop.execute { body(self.value.0, self.value.1) }
    }
}
