import NIOCore

/// Tells ``IngestFastPath`` that bytes arrived, before any decoding: a connection that has sent part of a
/// request head (or of a TLS handshake) is mid-request, not idle, though the HTTP decoder has produced nothing.
final class BytesArrivedHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private weak var fastPath: IngestFastPath?

    init(_ fastPath: IngestFastPath) {
        self.fastPath = fastPath
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        fastPath?.bytesArrived()
        context.fireChannelRead(data)
    }
}

@available(*, unavailable)
extension BytesArrivedHandler: Sendable {}
