import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 channel with ``IngestFastPath`` placed between SwiftNIO's HTTP/1 decoder and the codec
/// that turns its parts into HTTPTypes for the router.
///
/// Hummingbird's own hook (`additionalChannelHandlers`) adds handlers after that codec, where every request and
/// answer has already paid for the conversion the fast path does not need.
struct FastPathHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let base: HTTP1Channel
    let shared: IngestFastPath.Shared

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let shared = shared
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let codec = try pipeline.context(handlerType: HTTP1ToHTTPServerCodec.self)
            try pipeline.addHandler(IngestFastPath(shared), position: .before(codec.handler))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
