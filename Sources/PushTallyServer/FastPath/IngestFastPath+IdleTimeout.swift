import NIOCore

/// The connection's idle and slow-client clock, and eviction at `--max-connections` (``ConnectionRegistry``).
extension IngestFastPath {
    /// Bytes arrived, before decoding; they are kept until the decoder has read them.
    func bytesArrived(_ bytes: ByteBuffer) {
        machine.bytesArrived()
        bytesBeingDecoded = bytes
    }

    /// The decoder has read the bytes that arrived: a copy-on-write reference to them is not kept longer.
    func bytesDecoded() {
        bytesBeingDecoded = nil
    }

    /// Since when the connection has been idle, or `nil` while a request is read or answered.
    var idleSince: NIODeadline? { context == nil ? nil : machine.idleSince }

    /// Closes the connection if it is still idle since `since` (``ConnectionRegistry``): `true` if it did.
    func evict(ifIdleSince since: NIODeadline) -> Bool {
        guard let context, machine.idleSince == since else { return false }
        shared.logger.debug("closing the connection idle longest: at --max-connections", metadata: ["peer": "\(peer.map { "\($0)" } ?? "-")"])
        context.close(promise: nil)
        return true
    }

    func scheduleIdleCheck(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        idleCheck?.cancel()
        let loop = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        idleCheck = context.eventLoop.scheduleTask(deadline: deadline) {
            loop.execute { handler, context in handler.idleCheckFired(context) }
        }
    }

    private func idleCheckFired(_ context: ChannelHandlerContext) {
        guard self.context != nil else { return }
        switch machine.idleCheck(now: .now()) {
        case .close:
            shared.logger.debug("closing a connection that sat idle or sent too slowly", metadata: ["peer": "\(peer.map { "\($0)" } ?? "-")"])
            context.close(promise: nil)
        case .checkAgain(let deadline): scheduleIdleCheck(context, at: deadline)
        }
    }
}
