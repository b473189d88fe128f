import NIOCore

/// Tells ``IngestFastPath`` that bytes arrived, before any decoding: a connection that has sent part of a
/// request head (or of a TLS handshake) is mid-request, not idle, though the HTTP decoder has produced nothing.
/// The bytes are lent to it while the decoder reads them, so that a refusal of theirs can say what was wrong
/// where the parser's error does not (``ParserFailure``).
final class BytesArrivedHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// Strong, not weak: the pipeline owns both handlers and releases both when the channel closes (the fast
    /// path holds no reference back), and a weak reference would give the fast path a side table, moving every
    /// retain and release of it, several per request, to the runtime's slow path.
    private let fastPath: IngestFastPath

    init(_ fastPath: IngestFastPath) {
        self.fastPath = fastPath
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        fastPath.bytesArrived(unwrapInboundIn(data))
        context.fireChannelRead(data)
        fastPath.bytesDecoded()
    }
}

@available(*, unavailable)
extension BytesArrivedHandler: Sendable {}
