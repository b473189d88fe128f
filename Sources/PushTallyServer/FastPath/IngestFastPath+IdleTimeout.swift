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

    /// When the request being read began and how fast it arrives, or `nil` between requests.
    func requestArrival(now: NIODeadline) -> (began: NIODeadline, bytesPerSecond: Double)? {
        context == nil ? nil : machine.requestArrival(now: now)
    }

    /// Closes the connection if the request that began at `began` is still arriving (``ConnectionRegistry``):
    /// `true` if it did.
    func evict(ifRequestBegan began: NIODeadline) -> Bool {
        guard let context, machine.requestArrival(now: .now())?.began == began else { return false }
        shared.logger.debug(
            "closing the connection whose request arrives slowest: at --max-connections with none idle",
            metadata: ["peer": "\(peer.map { "\($0)" } ?? "-")"])
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
        case .close where machine.responsesBeingWritten > 0:
            // Nothing written for the idle timeout: ask the kernel whether the client still takes what it holds.
            let loop = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            PeerAcknowledgement.bytes(on: context.channel).whenComplete { result in
                let (handler, context) = loop.value
                guard handler.context != nil else { return }
                if case .success(let acknowledged?) = result, acknowledged > handler.acknowledged {
                    handler.acknowledged = acknowledged
                    handler.machine.writeProgressed(now: .now())
                    return handler.idleCheckFired(context)
                }
                handler.shared.logger.debug(
                    "closing a connection whose client took nothing of its answer", metadata: ["peer": "\(handler.peer.map { "\($0)" } ?? "-")"])
                context.close(promise: nil)
            }
        case .close:
            shared.logger.debug("closing a connection that sat idle or sent too slowly", metadata: ["peer": "\(peer.map { "\($0)" } ?? "-")"])
            if let request = machine.timedOutRequest() {
                // Told why before the close (RFC 9110 §15.5.9), where no other answer is owed first.
                let timeout = APIError(
                    .requestTimeout, "request_timeout",
                    "the request body did not arrive in time: it must arrive whole within \(shared.limits.requestTimeout.nanoseconds / 1_000_000_000) s of its head, at \(shared.limits.minimumBytesPerSecond) bytes a second or more after the first \(shared.limits.idleTimeout.nanoseconds / 1_000_000_000) s")
                return answer(shared.pipeline.refusal(timeout, pipelineRequest(request)), slot: request.slot, context)
            }
            context.close(promise: nil)
        case .checkAgain(let deadline): scheduleIdleCheck(context, at: deadline)
        }
    }
}
