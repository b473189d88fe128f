import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's basics plus the peer's address, for per-client limits.
public struct PushTallyRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The TCP peer (a proxy's address when behind one); `nil` in router tests without a socket.
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }
}
